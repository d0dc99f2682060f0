import { useAtom, useAtomValue, useSetAtom } from 'jotai';
import { useTranslation } from 'react-i18next';
import { FitToolbar, type BarAction } from '../../components/fit-toolbar';
import { failureText } from '../../lib/notice';
import { notifyAtom } from '../../state/notices';
import { searchOpenAtom, shellOpenAtom } from '../../state/panels';
import { uploadRequestedAtom } from '../../state/uploads';
import { switchViewAtom, viewModeAtom } from './state';
import type { FileActions } from './use-file-actions';

const VIEW_ICONS = { list: 'viewList', mosaic: 'viewGrid', 'mosaic gallery': 'viewGallery' } as const;

/**
 * What stays on a bar too narrow for all (a phone), most important first: what acts on the
 * selection, then what brings files in; the rest goes into "More actions".
 */
const ON_ITEMS = new Set(['share', 'rename', 'copy', 'move', 'paste', 'extract', 'delete', 'shell']);
const PRIORITY = ['delete', 'rename', 'move', 'copy', 'paste', 'extract', 'share', 'upload', 'search', 'download', 'multiple', 'view', 'info', 'shell'];

/**
 * The header actions of the files screen (ui.md): an action that needs a selection is disabled
 * while it does not apply; one the user has no permission for is not shown; on a bar too narrow
 * for all, the least needed go into the "More actions" menu.
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
  const bar: (BarAction & { shown?: boolean })[] = [
    { id: 'search', icon: 'search', label: t('actions.search'), onClick: () => setSearch(true) },
    { id: 'view', icon: VIEW_ICONS[view], label: t('actions.switchView'),
      onClick: () => void switchView().catch((error: unknown) => notify({ kind: 'error', message: failureText(error) })) },
    { id: 'download', icon: 'download', label: t('actions.download'), onClick: actions.download, shown: can.download },
    { id: 'upload', icon: 'upload', label: t('upload.action'), onClick: () => requestUpload(true), shown: has.create },
    { id: 'info', icon: 'info', label: t('actions.info'), onClick: actions.info },
    { id: 'multiple', icon: 'selectMultiple', label: t('actions.selectMultiple'), pressed: actions.multiple, onClick: actions.toggleMultiple },
    { id: 'share', icon: 'share', label: t('actions.share'), disabled: !can.share, onClick: actions.share, shown: has.share },
    { id: 'rename', icon: 'rename', label: t('actions.rename'), disabled: !can.rename, onClick: actions.rename, shown: has.rename },
    { id: 'copy', icon: 'copy', label: t('actions.copy'), disabled: !can.copy, onClick: actions.copy, shown: has.copy },
    { id: 'move', icon: 'move', label: t('actions.move'), disabled: !can.move, onClick: actions.move, shown: has.move },
    { id: 'paste', icon: 'paste', label: t('actions.paste'), onClick: actions.paste, shown: can.paste },
    { id: 'extract', icon: 'fileArchive', label: t('extract.action'), onClick: actions.extract, shown: can.extract },
    { id: 'delete', icon: 'trash', label: t('actions.delete'), disabled: !can.delete, onClick: actions.remove, shown: has.delete },
    { id: 'shell', icon: 'terminal', label: t('actions.toggleShell'), pressed: shellOpen, onClick: () => setShell(!shellOpen), shown: has.shell },
  ];
  const shown = bar.filter((a) => a.shown !== false);
  // A separator before the actions on items (wide screens): before Share, or the first of them shown.
  const gapAt = shown.findIndex((a) => ON_ITEMS.has(a.id));
  return <FitToolbar label={t('actions.toolbar')} moreLabel={t('actions.more')} actions={shown.map((a, i) => ({ ...a, gapBefore: i === gapAt }))} priority={PRIORITY} />;
}
