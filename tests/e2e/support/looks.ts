import type { Page } from 'playwright-core';
import { screenshot } from './harness';
import { updateAdmin } from './files';
import type { ApiClient } from './session';

/** The sizes and themes every changed screen is looked at in (1280x800 desktop, 390x844 phone). */
export const LOOKS = [
  { size: 'desktop', width: 1280, height: 800, theme: 'light' },
  { size: 'desktop', width: 1280, height: 800, theme: 'dark' },
  { size: 'phone', width: 390, height: 844, theme: 'light' },
  { size: 'phone', width: 390, height: 844, theme: 'dark' },
] as const;

/**
 * Screenshots `name` in each look, in `locale` (right-to-left for ar): `show` loads the page and
 * brings up what is to be looked at; the theme is the browser's own choice (localStorage), set
 * before `show` loads. The admin's locale, the theme and the window size are restored afterwards.
 */
export async function shootLooks(page: Page, api: ApiClient, shot: { name: string; locale: string; show: () => Promise<void> }): Promise<string[]> {
  const { name, locale, show } = shot;
  const paths: string[] = [];
  await updateAdmin(api, { locale });
  try {
    for (const look of LOOKS) {
      await page.setViewportSize({ width: look.width, height: look.height });
      await page.evaluate((theme) => localStorage.setItem('filemgr.theme', theme === 'dark' ? 'dark' : ''), look.theme);
      await show();
      paths.push(await screenshot(page, `${name}-${look.size}-${look.theme}-${locale}`));
    }
  } finally {
    await updateAdmin(api, { locale: 'en' });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.evaluate(() => localStorage.removeItem('filemgr.theme'));
  }
  return paths;
}
