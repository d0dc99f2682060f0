import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { apiUrl } from '../../api/http';
import { Dialog } from '../../components/dialog';
import { startDownload } from '../../lib/download';
import { ARCHIVE_FORMATS, archivePath } from '../../paths';
import { folderAtom, type Target } from '../../state/listing';

/** The archive format of a download of several items, or of the folder itself when none is selected. */
export function DownloadPrompt({ items, onClose }: { items: readonly Target[]; onClose: () => void }) {
  const { t } = useTranslation();
  const folder = useAtomValue(folderAtom) ?? '/';
  const paths = items.map((item) => item.path);
  return (
    <Dialog title={t('prompts.downloadTitle')} onClose={onClose}
      actions={<button type="button" className="button" onClick={onClose}>{t('prompts.cancel')}</button>}>
      <p>{t('prompts.downloadMessage')}</p>
      <div className="format-grid">
        {ARCHIVE_FORMATS.map(([label, algo]) => (
          <button key={algo} type="button" className="button" onClick={() => {
            startDownload(apiUrl(archivePath(folder, paths, algo)));
            onClose();
          }}>{label}</button>
        ))}
      </div>
    </Dialog>
  );
}
