import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FileInfo } from '../../api/types';
import { Spinner } from '../../components/spinner';
import { useImageSource } from './use-image-source';
import { useZoom } from './use-zoom';
import { transformOf } from './zoom';

/**
 * The image viewer (product.md §2): the picture named by the file name, zoomed and panned by
 * pointer, wheel and double click or tap.
 */
export function ImageViewer({ file }: { file: FileInfo }) {
  const { t } = useTranslation();
  const stage = useRef<HTMLDivElement>(null);
  const image = useRef<HTMLImageElement>(null);
  const source = useImageSource(file);
  const { view, handlers } = useZoom(stage, image);
  const [loaded, setLoaded] = useState('');
  const [broken, setBroken] = useState('');
  const failed = source.failed || (source.src !== undefined && broken === source.src);
  return (
    <div ref={stage} className="preview-stage preview-image-stage" {...handlers}>
      {failed && <p className="preview-message">{t('preview.imageFailed')}</p>}
      {!failed && source.src && (
        <img
          ref={image}
          key={source.src}
          className="preview-image"
          src={source.src}
          alt={file.name}
          draggable={false}
          style={{ transform: transformOf(view) }}
          onLoad={() => setLoaded(source.src ?? '')}
          onError={() => setBroken(source.src ?? '')}
        />
      )}
      {!failed && loaded !== source.src && <Spinner label={t('app.loading')} />}
    </div>
  );
}
