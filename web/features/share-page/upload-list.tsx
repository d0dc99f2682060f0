import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../components/icon';
import { currentLang } from '../../i18n';
import { formatSize } from '../../lib/format';
import { linkFilesAtom, type LinkFile } from './upload-link-state';

function percent(file: LinkFile): number {
  return file.size === 0 ? (file.status === 'done' ? 100 : 0) : Math.min(100, Math.floor((file.sent / file.size) * 100));
}

/** A file being sent (or waiting, or refused): its name, a progress bar and its state. */
function Sending({ file }: { file: LinkFile }) {
  const { t } = useTranslation();
  const value = percent(file);
  let state = `${value}%`;
  if (file.status === 'waiting') state = t('upload.waiting');
  if (file.status === 'failed' && file.error) state = 'text' in file.error ? file.error.text : t(file.error.key, file.error.values ?? {});
  return (
    <li className={file.status === 'failed' ? 'link-file failed' : 'link-file'}>
      <Icon name={file.status === 'failed' ? 'warning' : 'file'} className="link-file-icon" />
      <div className="link-file-main">
        <span className="link-file-name"><bdi>{file.name}</bdi></span>
        <div className="upload-bar" role="progressbar" aria-label={t('fileRequest.progress', { name: file.name })} aria-valuemin={0} aria-valuemax={100} aria-valuenow={value}>
          <span className="upload-bar-fill" style={{ inlineSize: `${value}%` }} />
        </div>
      </div>
      <span className="link-file-state" role={file.status === 'failed' ? 'alert' : undefined}>{state}</span>
    </li>
  );
}

/** A file the server has: the name it is stored under, and its size. */
function Received({ file }: { file: LinkFile }) {
  const { t } = useTranslation();
  return (
    <li className="link-file">
      <Icon name="check" className="link-file-icon done" />
      <div className="link-file-main">
        <span className="link-file-name"><bdi>{file.stored}</bdi></span>
        {file.stored !== file.name && <span className="field-help">{t('fileRequest.renamed', { name: file.name })}</span>}
      </div>
      <span className="link-file-state">{formatSize(file.size, currentLang())}</span>
    </li>
  );
}

/** The files of this visit: those on their way, then the list "Received". */
export function UploadList() {
  const { t } = useTranslation();
  const files = useAtomValue(linkFilesAtom);
  const pending = files.filter((f) => f.status !== 'done');
  const received = files.filter((f) => f.status === 'done');
  return (
    <>
      {pending.length > 0 && (
        <ul className="link-files" aria-label={t('fileRequest.sending')}>
          {pending.map((f) => <Sending key={f.id} file={f} />)}
        </ul>
      )}
      {received.length > 0 && (
        <section className="link-received" aria-labelledby="link-received-title">
          <h2 id="link-received-title" className="link-received-title">{t('fileRequest.received')}</h2>
          <ul className="link-files" aria-label={t('fileRequest.received')}>
            {received.map((f) => <Received key={f.id} file={f} />)}
          </ul>
        </section>
      )}
    </>
  );
}
