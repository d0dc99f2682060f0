// THE page table's rows (product.md §2): who may open each page, its title and its frame. The
// app (web/routes.tsx) gives each row what it renders; the settings shell takes its tabs from
// the rows that carry one, so a page is listed once.
import type { Messages } from './i18n/locales';
import type { SettingsTab } from './paths';
import type { Access } from './state/abilities';

export type { Access };


/** The page frame: nothing (login), a header (error pages) or header + sidebar + main. */
export type LayoutVariant = 'bare' | 'header' | 'shell';

export interface PageRow {
  path: string;
  title: keyof Messages['titles'];
  access: Access;
  layout: LayoutVariant;
  /** The settings tab that leads to this page, if any. */
  tab?: SettingsTab;
}

/** Order matters: the first matching path wins. */
export const PAGES = [
  { path: '/login', title: 'login', access: 'guest', layout: 'bare' },
  { path: '/files/*', title: 'files', access: 'user', layout: 'shell' },
  { path: '/share/*', title: 'share', access: 'public', layout: 'shell' },
  { path: '/trash', title: 'trash', access: 'user', layout: 'shell' },
  { path: '/settings/profile', title: 'profile', access: 'user', layout: 'shell', tab: 'profile' },
  { path: '/settings/shares', title: 'shares', access: 'share', layout: 'shell', tab: 'shares' },
  { path: '/settings/global', title: 'global', access: 'admin', layout: 'shell', tab: 'global' },
  { path: '/settings/users', title: 'users', access: 'admin', layout: 'shell', tab: 'users' },
  { path: '/settings/users/:id', title: 'user', access: 'admin', layout: 'shell' },
  { path: '/settings/activity', title: 'activity', access: 'admin', layout: 'shell', tab: 'activity' },
  { path: '/403', title: 'forbidden', access: 'public', layout: 'header' },
  { path: '/404', title: 'notFound', access: 'public', layout: 'header' },
  { path: '/500', title: 'internal', access: 'public', layout: 'header' },
] as const satisfies readonly PageRow[];

export type PagePath = (typeof PAGES)[number]['path'];

type TabRow = PageRow & { tab: SettingsTab };

/** The settings tabs, in the table's order: the rows that carry a tab. */
export const SETTINGS_TABS: readonly TabRow[] = (PAGES as readonly PageRow[]).filter((row): row is TabRow => row.tab !== undefined);
