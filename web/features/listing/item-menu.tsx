import { useTranslation } from 'react-i18next';
import { Menu } from '../../components/menu';
import { itemMenuEntries } from './menu-entries';
import { useFileActions } from './use-file-actions';
import type { OpenMenu } from './use-item-menu';

/** The context menu of the selected items: the toolbar's item actions, by the same handlers. */
export function ItemMenu({ menu, onClose }: { menu: OpenMenu; onClose: (restoreFocus: boolean) => void }) {
  const { t } = useTranslation();
  const actions = useFileActions();
  const entries = itemMenuEntries(actions, (key) => t(`actions.${key}`));
  return <Menu label={t('actions.toolbar')} entries={entries} at={menu.at} onClose={onClose} />;
}
