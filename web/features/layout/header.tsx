import { useAtom, useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { Icon } from '../../components/icon';
import { instanceName } from '../../lib/page-config';
import { filesPath } from '../../paths';
import { configAtom } from '../../state/config';
import { sidebarOpenAtom } from './state';

/** The top bar: the menu button (narrow screens), the logo and the instance name. */
export function Header({ withMenu }: { withMenu: boolean }) {
  const { t } = useTranslation();
  const config = useAtomValue(configAtom);
  const [open, setOpen] = useAtom(sidebarOpenAtom);
  const name = instanceName(config);
  return (
    <header className="header">
      {withMenu && (
        <button
          type="button"
          className="icon-button menu-button"
          aria-label={t('header.toggleSidebar')}
          aria-expanded={open}
          aria-controls="sidebar"
          onClick={() => setOpen(!open)}
        >
          <Icon name="menu" />
        </button>
      )}
      <Link className="brand" href={filesPath()} aria-label={t('header.home', { name })}>
        <img src={`${config.StaticURL}/img/logo.svg`} alt="" width="32" height="32" />
        <span className="brand-name">{name}</span>
      </Link>
    </header>
  );
}
