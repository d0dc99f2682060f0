import { useAtom, useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { Icon } from '../../components/icon';
import { instanceName } from '../../lib/page-config';
import { filesPath, loginPath } from '../../paths';
import { configAtom } from '../../state/config';
import { userAtom } from '../../state/session';
import { sidebarOpenAtom } from './state';

/** The top bar: the menu button (narrow screens), the logo and the instance name; Login when signed out. */
export function Header({ withMenu }: { withMenu: boolean }) {
  const { t } = useTranslation();
  const config = useAtomValue(configAtom);
  const [open, setOpen] = useAtom(sidebarOpenAtom);
  const name = instanceName(config);
  const visitor = useAtomValue(userAtom) === null;
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
      {/* Signed out there is no sidebar (layout.tsx): its Login link is here. */}
      {visitor && !config.HideLoginButton && <Link className="button header-login" href={loginPath()}>{t('sidebar.login')}</Link>}
    </header>
  );
}
