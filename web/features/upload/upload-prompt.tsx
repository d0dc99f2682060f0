import { useTranslation } from 'react-i18next';
import { Dialog } from '../../components/dialog';
import { Icon } from '../../components/icon';

/** The Upload prompt (ui.md): pick files, or a whole folder with its tree. */
export function UploadPrompt({ onPick, onClose }: { onPick: (kind: 'file' | 'folder') => void; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog title={t('upload.promptTitle')} onClose={onClose} className="upload-prompt"
      actions={null}>
      <p>{t('upload.promptMessage')}</p>
      <div className="upload-choices">
        <button type="button" className="upload-choice" data-autofocus onClick={() => onPick('file')}>
          <Icon name="file" className="upload-choice-icon" />
          <span>{t('upload.file')}</span>
        </button>
        <button type="button" className="upload-choice" onClick={() => onPick('folder')}>
          <Icon name="folder" className="upload-choice-icon folder" />
          <span>{t('upload.folder')}</span>
        </button>
      </div>
    </Dialog>
  );
}
