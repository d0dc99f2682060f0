import { useAtom, useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import type { FileInfo } from '../../api/types';
import { Icon, type IconName } from '../../components/icon';
import { configAtom } from '../../state/config';
import { isTiffLike } from './neighbours';
import { fullSizeAtom } from './state';
import type { PreviewActions } from './use-preview-actions';

interface ActionProps {
  icon?: IconName;
  label: string;
  onClick: () => void;
  pressed?: boolean;
}

function Action({ icon, label, onClick, pressed }: ActionProps) {
  return (
    <button type="button" className="icon-button preview-action" aria-label={label} title={label} aria-pressed={pressed} onClick={onClick}>
      {icon && <Icon name={icon} />}
    </button>
  );
}

/** An action whose name is also shown as text: Edit and Rename, which one pencil alone would confuse. */
function LabelledAction({ icon, label, onClick }: ActionProps) {
  return (
    <button type="button" className="preview-action preview-action-text" onClick={onClick}>
      {icon && <Icon name={icon} />}<span>{label}</span>
    </button>
  );
}

/** The preview's header (ui.md 'Preview and editor'): Close, the name, and the actions by permission. */
export function PreviewBar({ file, actions }: { file: FileInfo; actions: PreviewActions }) {
  const { t } = useTranslation();
  const resize = useAtomValue(configAtom).ResizePreview;
  const [full, setFull] = useAtom(fullSizeAtom);
  const isImage = file.type === 'image' || isTiffLike(file.name);
  const { can } = actions;
  return (
    <header className="preview-bar">
      <Action icon="close" label={t('preview.close')} onClick={actions.close} />
      <h1 className="preview-title"><bdi>{file.name}</bdi></h1>
      <div className="preview-actions" role="toolbar" aria-label={t('actions.toolbar')}>
        {resize && isImage && can.download && <Action icon="expand" label={t('preview.toggleSize')} pressed={full} onClick={() => setFull(!full)} />}
        {can.edit && <LabelledAction icon="rename" label={t('preview.edit')} onClick={actions.edit} />}
        {can.rename && <LabelledAction label={t('actions.rename')} onClick={actions.rename} />}
        {can.delete && <Action icon="trash" label={t('actions.delete')} onClick={actions.remove} />}
        {can.download && <Action icon="download" label={t('actions.download')} onClick={actions.download} />}
        <Action icon="info" label={t('actions.info')} onClick={actions.info} />
      </div>
    </header>
  );
}

/** Previous and Next over the folder's images, videos, audio and other files; they fade when idle. */
export function PreviewNav({ actions, shown }: { actions: PreviewActions; shown: boolean }) {
  const { t } = useTranslation();
  const { previous, next } = actions.neighbours;
  return (
    <div className="preview-nav" data-shown={shown}>
      {previous && (
        <button type="button" className="preview-nav-button preview-nav-previous" aria-label={t('preview.previous')} title={t('preview.previous')} onClick={actions.previous}>
          <Icon name="chevronBack" />
        </button>
      )}
      {next && (
        <button type="button" className="preview-nav-button preview-nav-next" aria-label={t('preview.next')} title={t('preview.next')} onClick={actions.next}>
          <Icon name="chevron" />
        </button>
      )}
    </div>
  );
}
