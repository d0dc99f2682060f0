import { useAtomValue } from 'jotai';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { settingsPath, type SettingsTab } from '../../paths';
import { userAtom } from '../../state/session';

const TABS: { tab: SettingsTab; title: 'profile' | 'shares' | 'global' | 'users'; needs: 'none' | 'share' | 'admin' }[] = [
  { tab: 'profile', title: 'profile', needs: 'none' },
  { tab: 'shares', title: 'shares', needs: 'share' },
  { tab: 'global', title: 'global', needs: 'admin' },
  { tab: 'users', title: 'users', needs: 'admin' },
];

/** The settings tabs of product.md §2 'Settings shell', each shown by permission. */
export function SettingsShell({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const user = useAtomValue(userAtom);
  const [location] = useLocation();
  const tabs = TABS.filter(({ needs }) => needs === 'none' || (needs === 'share' ? user?.perm.share : user?.perm.admin));
  const isCurrent = (tab: SettingsTab): boolean => location === settingsPath(tab) || location.startsWith(`${settingsPath(tab)}/`);
  const current = tabs.find(({ tab }) => isCurrent(tab));
  return (
    <div className="settings">
      <h1 className="visually-hidden">{t(`titles.${current?.title ?? 'settings'}`)}</h1>
      <nav className="tabs" aria-label={t('settings.tabs')}>
        {tabs.map(({ tab, title }) => {
          return (
            <Link key={tab} href={settingsPath(tab)} className="tab" aria-current={isCurrent(tab) ? 'page' : undefined}>
              {t(`titles.${title}`)}
            </Link>
          );
        })}
      </nav>
      <div className="settings-cards">{children}</div>
    </div>
  );
}
