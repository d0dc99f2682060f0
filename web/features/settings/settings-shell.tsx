import { useAtomValue } from 'jotai';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { SETTINGS_TABS } from '../../pages';
import { settingsPath, type SettingsTab } from '../../paths';
import { abilitiesAtom, mayOpen } from '../../state/abilities';

/** The settings tabs of product.md §2 'Settings shell', each shown by permission. */
export function SettingsShell({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const abilities = useAtomValue(abilitiesAtom);
  const [location] = useLocation();
  const tabs = SETTINGS_TABS.filter(({ access }) => mayOpen(abilities, access));
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
