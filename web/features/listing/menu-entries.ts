import type { MenuEntry } from '../../components/menu';
import type { FileActions } from './use-file-actions';

type Label = (key: 'download' | 'info' | 'share' | 'rename' | 'copy' | 'move' | 'paste' | 'delete') => string;

/**
 * The item actions of the toolbar as context-menu entries, in the toolbar's order and under its
 * rules (product.md §2): an action the user has no permission for is left out, one that does not
 * apply to the selection is disabled; each runs the toolbar's own handler.
 */
export function itemMenuEntries(actions: FileActions, label: Label): MenuEntry[] {
  const { can, has } = actions;
  const entries: (MenuEntry | false)[] = [
    can.download && { id: 'download', icon: 'download', label: label('download'), onSelect: actions.download },
    { id: 'info', icon: 'info', label: label('info'), onSelect: actions.info },
    has.share && { id: 'share', icon: 'share', label: label('share'), disabled: !can.share, onSelect: actions.share },
    has.rename && { id: 'rename', icon: 'rename', label: label('rename'), disabled: !can.rename, onSelect: actions.rename },
    has.copy && { id: 'copy', icon: 'copy', label: label('copy'), disabled: !can.copy, onSelect: actions.copy },
    has.move && { id: 'move', icon: 'move', label: label('move'), disabled: !can.move, onSelect: actions.move },
    can.paste && { id: 'paste', icon: 'paste', label: label('paste'), onSelect: actions.paste },
    has.delete && { id: 'delete', icon: 'trash', label: label('delete'), disabled: !can.delete, onSelect: actions.remove },
  ];
  return entries.filter((entry): entry is MenuEntry => entry !== false);
}
