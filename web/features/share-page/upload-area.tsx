import { useAtomValue, useSetAtom } from 'jotai';
import { useCallback, useEffect, useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { UploadLinkInfo } from '@contract/share';
import { Icon } from '../../components/icon';
import { currentLang } from '../../i18n';
import { formatRelative } from '../../lib/format';
import { nowAtom } from '../../state/clock';
import { configAtom } from '../../state/config';
import { sendFilesAtom } from './upload-link-state';
import { UploadList } from './upload-list';

/** A drag that carries files from the desktop. */
function carriesFiles(event: DragEvent): boolean {
  return event.dataTransfer.types.includes('Files');
}

/** The drop zone with its "Choose files" button; files go to `onFiles`. */
function DropZone({ onFiles }: { onFiles: (files: File[]) => void }) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const drop = (event: DragEvent): void => {
    event.preventDefault();
    setOver(false);
    onFiles([...event.dataTransfer.files]);
  };
  const enter = (event: DragEvent): void => {
    if (!carriesFiles(event)) return;
    event.preventDefault();
    setOver(true);
  };
  return (
    <div className={over ? 'link-drop over' : 'link-drop'} onDragEnter={enter} onDragOver={enter} onDragLeave={() => setOver(false)} onDrop={drop}>
      <Icon name="upload" />
      <p className="link-drop-text">{t('fileRequest.dropHere')}</p>
      <button type="button" className="button button-primary" onClick={() => input.current?.click()}>{t('fileRequest.chooseFiles')}</button>
      <input ref={input} type="file" multiple hidden data-testid="link-files"
        onChange={(e) => {
          onFiles([...(e.target.files ?? [])]);
          e.target.value = '';
        }} />
    </div>
  );
}

/** Files dropped anywhere on the page are sent too (and the browser does not open them instead). */
function usePageDrop(onFiles: (files: File[]) => void): void {
  useEffect(() => {
    const over = (event: globalThis.DragEvent): void => {
      if (event.dataTransfer?.types.includes('Files')) event.preventDefault();
    };
    const drop = (event: globalThis.DragEvent): void => {
      if (!event.dataTransfer?.types.includes('Files') || event.defaultPrevented) return;
      event.preventDefault();
      onFiles([...event.dataTransfer.files]);
    };
    window.addEventListener('dragover', over);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragover', over);
      window.removeEventListener('drop', drop);
    };
  }, [onFiles]);
}

/**
 * The public page of an upload link (beyond.md §2): region "Upload" with the folder's name, the
 * drop zone and "Choose files", then the files of this visit with their progress.
 */
export function UploadArea({ link, hash }: { link: UploadLinkInfo; hash: string }) {
  const { t } = useTranslation();
  const config = useAtomValue(configAtom);
  const now = useAtomValue(nowAtom);
  const send = useSetAtom(sendFilesAtom);
  const settings = config.TusSettings;
  const onFiles = useCallback((files: File[]): void => {
    if (files.length > 0) send({ files, target: { link, hash, settings } });
  }, [send, link, hash, settings]);
  usePageDrop(onFiles);
  return (
    <section className="card link-upload" aria-label={t('fileRequest.upload')}>
      <div className="card-body">
        <h1 className="share-name">
          <span className="share-icon folder"><Icon name="folder" /></span>
          <span>{t('fileRequest.title', { name: link.name })}</span>
        </h1>
        <p className="field-help">{t('fileRequest.intro')}</p>
        {link.expire !== 0 && <p className="field-help">{t('fileRequest.expires', { when: formatRelative(link.expire, now, currentLang()) })}</p>}
        <DropZone onFiles={onFiles} />
        <UploadList />
      </div>
    </section>
  );
}
