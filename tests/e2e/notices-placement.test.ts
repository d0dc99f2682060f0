import { readFileSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot, startServer, type BrowserHandle, type ServerHandle, shutDown } from './support/harness';
import { updateAdmin } from './support/files';
import { apiAs, signIn, type ApiClient } from './support/session';

interface Strings {
  users: { currentPassword: string; save: string };
  serverErrors: { wrongCurrentPassword: string };
}
const strings = (code: string): Strings => JSON.parse(readFileSync(new URL(`../../web/i18n/locales/${code}.json`, import.meta.url), 'utf8')) as Strings;

/** Saves the admin's own user with a wrong "Your password" (the server answers 400); resolves with the Save button. */
async function saveWithWrongPassword(page: Page, server: ServerHandle, s: Strings): Promise<Locator> {
  await page.goto(`${server.url}/settings/users/1`);
  await page.getByLabel(s.users.currentPassword, { exact: true }).fill(`${server.password}-wrong`);
  const save = page.getByRole('button', { name: s.users.save, exact: true });
  await save.click();
  await page.getByRole('alert').filter({ hasText: s.serverErrors.wrongCurrentPassword }).waitFor();
  return save;
}

function overlap(a: { x: number; y: number; width: number; height: number }, b: typeof a): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

describe('error notices', () => {
  let server: ServerHandle;
  let browser: BrowserHandle;
  let api: ApiClient;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    api = await apiAs(server);
    await signIn(browser.page, server);
  });

  afterAll(async () => {
    await updateAdmin(api, { locale: 'en' });
    await shutDown(browser, server);
  });

  for (const size of [{ width: 1280, height: 800 }, { width: 390, height: 844 }, { width: 320, height: 640 }]) {
    it(`never cover the Save button that made them, and a new error replaces the old (${size.width}px)`, async () => {
      const { page } = browser;
      await page.setViewportSize(size);
      const save = await saveWithWrongPassword(page, server, strings('en'));
      const alert = page.getByRole('alert');
      expect(overlap((await alert.boundingBox())!, (await save.boundingBox())!)).toBe(false);
      // Saving again needs no dismissing first: the button is clickable where it is, and still focused.
      expect(await save.evaluate((button) => button === document.activeElement)).toBe(true);
      await save.click({ trial: true });
      await save.click();
      await page.waitForResponse((r) => r.url().endsWith('/api/users/1') && r.request().method() === 'PUT');
      await alert.filter({ hasText: 'The current password is incorrect.' }).waitFor();
      expect(await alert.count()).toBe(1);
      expect(await save.evaluate((button) => button === document.activeElement)).toBe(true);
      await alert.getByRole('button', { name: 'Close', exact: true }).click();
      await alert.waitFor({ state: 'detached' });
    });
  }

  it('say what the server refused in the interface language, never as a raw status line', async () => {
    const { page } = browser;
    await updateAdmin(api, { locale: 'ar' });
    const ar = strings('ar');
    for (const [name, size] of [['desktop', { width: 1280, height: 800 }], ['phone', { width: 390, height: 844 }]] as const) {
      for (const theme of ['', 'dark']) {
        await page.setViewportSize(size);
        await page.goto(`${server.url}/files/`);
        await page.evaluate((t) => localStorage.setItem('filemgr.theme', t), theme);
        await saveWithWrongPassword(page, server, ar);
        const alert = page.getByRole('alert');
        expect(await alert.innerText()).not.toMatch(/400|Bad Request|incorrect/);
        await screenshot(page, `notice-error-ar-${name}-${theme || 'light'}`);
      }
    }
    await page.evaluate(() => localStorage.removeItem('filemgr.theme'));
    await updateAdmin(api, { locale: 'en' });
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});
