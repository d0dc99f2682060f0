import { useAtomValue } from 'jotai';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { apiUrl } from '../../api/http';
import type { FileInfo } from '../../api/types';
import { Icon } from '../../components/icon';
import { currentLang } from '../../i18n';
import { formatSize } from '../../lib/format';
import { abilitiesAtom } from '../../state/abilities';
import { rawInlinePath } from './sources';

interface NoPreviewProps {
  file: FileInfo;
  onDownload: () => void;
}

/** A file the browser cannot show (product.md §2): the message, with Download and Open file. */
export function NoPreview({ file, onDownload }: NoPreviewProps) {
  const { t } = useTranslation();
  const canDownload = useAtomValue(abilitiesAtom).download;
  const titleId = useId();
  // A new tab of the inline file: the server sandboxes it there too.
  const open = (): void => void window.open(apiUrl(rawInlinePath(file)), '_blank', 'noopener');
  return (
    <div className="preview-stage">
      <section className="preview-card" aria-labelledby={titleId}>
        <Icon name="file" className="preview-card-icon" />
        <h2 id={titleId} className="preview-card-title"><bdi>{file.name}</bdi></h2>
        <p className="preview-card-size">{formatSize(file.size, currentLang())}</p>
        <p>{t('preview.none')}</p>
        {canDownload && (
          <div className="preview-card-actions">
            <button type="button" className="button button-primary" onClick={onDownload}>
              <Icon name="download" />
              <span>{t('actions.download')}</span>
            </button>
            <button type="button" className="button" onClick={open}>
              <Icon name="external" />
              <span>{t('preview.openFile')}</span>
            </button>
          </div>
        )}
      </section>
    </div>
  );
}
