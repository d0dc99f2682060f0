import { useAtomValue, useSetAtom } from 'jotai';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { Icon, type IconName } from '../../components/icon';
import { canLogout, PRODUCT_NAME } from '../../lib/page-config';
import { filesPath, loginPath, settingsPath, signupPath, trashPath } from '../../paths';
import { abilitiesAtom } from '../../state/abilities';
import { configAtom } from '../../state/config';
import { showPromptAtom } from '../../state/prompts';
import { signOutAtom, userAtom } from '../../state/session';
import { oidcLogoutAtom, signedInWithOidcAtom } from '../../state/oidc';
import { sidebarOpenAtom } from './state';
import { UsageBar } from './usage-bar';

function Item({ icon, children }: { icon: IconName; children: ReactNode }) {
  return (
    <>
      <Icon name={icon} />
      <span>{children}</span>
    </>
  );
}

function SignedInItems() {
  const { t } = useTranslation();
  const may = useAtomValue(abilitiesAtom);
  const config = useAtomValue(configAtom);
  const showPrompt = useSetAtom(showPromptAtom);
  const signOut = useSetAtom(signOutAtom);
  const [, navigate] = useLocation();
  const withOidc = useAtomValue(signedInWithOidcAtom);
  const oidcLogout = useSetAtom(oidcLogoutAtom);
  const logout = (): void => {
    if (withOidc) return void oidcLogout(`${config.BaseURL}${loginPath()}`);
    signOut();
    if (config.AuthMethod === 'proxy' && config.LogoutPage !== '/login') window.location.assign(config.LogoutPage);
    else navigate(loginPath(), { replace: true });
  };
  return (
    <>
      <Link className="nav-item" href={filesPath()}><Item icon="home">{t('sidebar.myFiles')}</Item></Link>
      {may.create && (
        <>
          <button type="button" className="nav-item" onClick={() => showPrompt({ kind: 'newDir' })}><Item icon="folderPlus">{t('sidebar.newFolder')}</Item></button>
          <button type="button" className="nav-item" onClick={() => showPrompt({ kind: 'newFile' })}><Item icon="filePlus">{t('sidebar.newFile')}</Item></button>
        </>
      )}
      <Link className="nav-item" href={trashPath()}><Item icon="trash">{t('trash.title')}</Item></Link>
      <Link className="nav-item" href={settingsPath('profile')}><Item icon="settings">{t('sidebar.settings')}</Item></Link>
      {canLogout(config) && (
        <button type="button" className="nav-item" onClick={logout}><Item icon="logout">{t('sidebar.logout')}</Item></button>
      )}
    </>
  );
}

function SignedOutItems() {
  const { t } = useTranslation();
  const config = useAtomValue(configAtom);
  return (
    <>
      {!config.HideLoginButton && <Link className="nav-item" href={loginPath()}><Item icon="login">{t('sidebar.login')}</Item></Link>}
      {config.Signup && <Link className="nav-item" href={signupPath()}><Item icon="userPlus">{t('sidebar.signup')}</Item></Link>}
    </>
  );
}

/** The navigation landmark of product.md §2 'Sidebar'. */
export function Sidebar({ showUsage }: { showUsage: boolean }) {
  const { t } = useTranslation();
  const user = useAtomValue(userAtom);
  const config = useAtomValue(configAtom);
  const open = useAtomValue(sidebarOpenAtom);
  const showPrompt = useSetAtom(showPromptAtom);
  return (
    <nav id="sidebar" className={open ? 'sidebar open' : 'sidebar'} aria-label={t('sidebar.label')}>
      {user ? <SignedInItems /> : <SignedOutItems />}
      <button type="button" className="nav-item" onClick={() => showPrompt({ kind: 'help' })}><Item icon="help">{t('sidebar.help')}</Item></button>
      {showUsage && user && !config.DisableUsedPercentage && <UsageBar />}
      <p className="credits">{PRODUCT_NAME}{config.Version && <span className="version"> v{config.Version}</span>}</p>
    </nav>
  );
}
