import { useAtom, useAtomValue, useSetAtom } from 'jotai';
import { useTranslation } from 'react-i18next';
import { Icon, type IconName } from '../../components/icon';
import { failureText } from '../../lib/notice';
import { notifyAtom } from '../../state/notices';
import { searchOpenAtom, shellOpenAtom } from '../../state/panels';
import { uploadRequestedAtom } from '../../state/uploads';
import { switchViewAtom, viewModeAtom } from './state';
import type { FileActions } from './use-file-actions';

interface ActionProps {
  icon: IconName;
  label: string;
  onClick: () => void;
  disabled?: boolean;
  pressed?: boolean;
}

function Action({ icon, label, onClick, disabled, pressed }: ActionProps) {
  return (
    <button type="button" className="icon-button action" aria-label={label} title={label} disabled={disabled} aria-pressed={pressed} onClick={onClick}>
      <Icon name={icon} />
    </button>
  );
}

const VIEW_ICONS = { list: 'viewList', mosaic: 'viewGrid', 'mosaic gallery': 'viewGallery' } as const;

/**
 * The header actions of the files screen (ui.md): an action that needs a selection is disabled
 * while it does not apply; one the user has no permission for is not shown.
 */
export function Toolbar({ actions }: { actions: FileActions }) {
  const { t } = useTranslation();
  const view = useAtomValue(viewModeAtom);
  const switchView = useSetAtom(switchViewAtom);
  const notify = useSetAtom(notifyAtom);
  const setSearch = useSetAtom(searchOpenAtom);
  const requestUpload = useSetAtom(uploadRequestedAtom);
  const [shellOpen, setShell] = useAtom(shellOpenAtom);
  const { can, has } = actions;
  return (
    <div className="toolbar" role="toolbar" aria-label={t('actions.toolbar')}>
      <Action icon="search" label={t('actions.search')} onClick={() => setSearch(true)} />
      <Action icon={VIEW_ICONS[view]} label={t('actions.switchView')}
        onClick={() => void switchView().catch((error: unknown) => notify({ kind: 'error', message: failureText(error) }))} />
      {can.download && <Action icon="download" label={t('actions.download')} onClick={actions.download} />}
      {has.create && <Action icon="upload" label={t('upload.action')} onClick={() => requestUpload(true)} />}
      <Action icon="info" label={t('actions.info')} onClick={actions.info} />
      <Action icon="selectMultiple" label={t('actions.selectMultiple')} pressed={actions.multiple} onClick={actions.toggleMultiple} />
      <span className="toolbar-gap" />
      {has.share && <Action icon="share" label={t('actions.share')} disabled={!can.share} onClick={actions.share} />}
      {has.rename && <Action icon="rename" label={t('actions.rename')} disabled={!can.rename} onClick={actions.rename} />}
      {has.copy && <Action icon="copy" label={t('actions.copy')} disabled={!can.copy} onClick={actions.copy} />}
      {has.move && <Action icon="move" label={t('actions.move')} disabled={!can.move} onClick={actions.move} />}
      {can.paste && <Action icon="paste" label={t('actions.paste')} onClick={actions.paste} />}
      {has.delete && <Action icon="trash" label={t('actions.delete')} disabled={!can.delete} onClick={actions.remove} />}
      {has.shell && <Action icon="terminal" label={t('actions.toggleShell')} pressed={shellOpen} onClick={() => setShell(!shellOpen)} />}
    </div>
  );
}
