import { useAtom } from 'jotai';
import { apiUrl } from '../../api/http';
import type { FileInfo } from '../../api/types';
import { Icon } from '../../components/icon';
import { baseName } from '../../paths';
import { rawInlinePath, subtitleUrl } from './sources';
import { autoplayAtom } from './state';

/** The language a subtitle's name carries before its extension (`film.de.srt`), if any. */
function languageOf(path: string): string | undefined {
  const parts = baseName(path).split('.');
  const code = parts.length > 2 ? parts.at(-2) : undefined;
  return code && /^[a-z]{2,3}(-[a-z0-9]{2,8})?$/i.test(code) ? code : undefined;
}

function Tracks({ file }: { file: FileInfo }) {
  return (
    <>
      {(file.subtitles ?? []).map((path, i) => (
        <track key={path} kind="subtitles" src={subtitleUrl(path)} label={baseName(path)} srcLang={languageOf(path)} default={i === 0} />
      ))}
    </>
  );
}

/**
 * Audio and video in the browser's own players (product.md §2): subtitle tracks from the server,
 * and once something was played, the next item starts by itself.
 */
export function MediaViewer({ file }: { file: FileInfo }) {
  const [autoplay, setAutoplay] = useAtom(autoplayAtom);
  const src = apiUrl(rawInlinePath(file));
  const onPlay = (): void => setAutoplay(true);
  if (file.type === 'audio') {
    return (
      <div className="preview-stage">
        <figure className="preview-audio">
          <Icon name="music" className="preview-audio-icon" />
          <figcaption><bdi>{file.name}</bdi></figcaption>
          <audio src={src} controls autoPlay={autoplay} onPlay={onPlay} aria-label={file.name} />
        </figure>
      </div>
    );
  }
  return (
    <div className="preview-stage">
      <video className="preview-video" src={src} controls autoPlay={autoplay} onPlay={onPlay} playsInline aria-label={file.name}>
        <Tracks file={file} />
      </video>
    </div>
  );
}
