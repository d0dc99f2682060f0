import { describe, expect, it } from 'vitest';
import { PAGES, SETTINGS_TABS } from './pages';
import { settingsPath } from './paths';

describe('the page table', () => {
  it('gives the settings shell its tabs in order, each leading to its own row', () => {
    expect(SETTINGS_TABS.map(({ tab, access }) => [tab, access])).toEqual([
      ['profile', 'user'],
      ['shares', 'share'],
      ['global', 'admin'],
      ['users', 'admin'],
      ['activity', 'admin'],
    ]);
    for (const row of SETTINGS_TABS) expect(row.path).toBe(settingsPath(row.tab));
  });

  it('lists each path once', () => {
    expect(new Set(PAGES.map((row) => row.path)).size).toBe(PAGES.length);
  });
});
