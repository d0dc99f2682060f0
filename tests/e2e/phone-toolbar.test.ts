import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot, startServer, type BrowserHandle, type ServerHandle, shutDown } from './support/harness';
import { apiAs, signIn, type ApiClient } from './support/session';
import { dialog, dialogButton, item, openFolder, selectedText, untilOnDisk, updateAdmin } from './support/files';

const TREE = { 'ph/gone.txt': 'x', 'ph/info.txt': 'y', 'ph/sub': null };

function toolbar(page: Page) {
  return page.getByRole('toolbar', { name: 'File actions', exact: true });
}

/** Every button of the bar lies wholly inside the window, and the bar does not scroll. */
async function expectAllWhole(page: Page): Promise<void> {
  const { cut, scrolls, width } = await page.evaluate(() => {
    const bar = document.querySelector('[role="toolbar"]')!;
    const cut = [...bar.querySelectorAll('button')].filter((b) => {
      const r = b.getBoundingClientRect();
      return r.left < 0 || r.right > window.innerWidth || r.width < 30;
    }).map((b) => b.getAttribute('aria-label'));
    return { cut, scrolls: bar.scrollWidth > bar.clientWidth, width: document.documentElement.scrollWidth };
  });
  expect(cut).toEqual([]);
  expect(scrolls).toBe(false);
  expect(width).toBeLessThanOrEqual(page.viewportSize()!.width);
}

describe('the files toolbar on a phone', () => {
  let server: ServerHandle;
  let browser: BrowserHandle;
  let api: ApiClient;

  beforeAll(async () => {
    server = await startServer({ tree: TREE });
    api = await apiAs(server);
    await updateAdmin(api, { viewMode: 'list' });
    browser = await launchBrowser();
    await signIn(browser.page, server);
  });

  afterAll(() => shutDown(browser, server));

  for (const width of [320, 360, 390]) {
    it(`fits at ${width} px: Delete whole on the bar, the rest under "More actions"`, async () => {
      const { page } = browser;
      await page.setViewportSize({ width, height: 780 });
      await openFolder(page, server, { folder: '/ph/', expect: 'info.txt' });
      await expectAllWhole(page);
      await item(page, 'info.txt').click();
      await selectedText(page, 1).waitFor();
      await expectAllWhole(page);
      await toolbar(page).getByRole('button', { name: 'Delete', exact: true }).click({ trial: true });
      const more = toolbar(page).getByRole('button', { name: 'More actions', exact: true });
      await more.click();
      const menu = page.getByRole('menu', { name: 'More actions', exact: true });
      await menu.getByRole('menuitem', { name: 'Info', exact: true }).click();
      await dialog(page, 'File information').waitFor();
      await dialogButton(page, 'File information', 'OK').click();
      expect(await menu.count()).toBe(0);
    });
  }

  it('deletes from the bar at 320 px and works by keyboard (arrows, Escape)', async () => {
    const { page } = browser;
    await page.setViewportSize({ width: 320, height: 640 });
    await openFolder(page, server, { folder: '/ph/', expect: 'gone.txt' });
    await item(page, 'gone.txt').click();
    await toolbar(page).getByRole('button', { name: 'Delete', exact: true }).click();
    await dialogButton(page, 'Delete', 'Delete').click();
    await untilOnDisk(join(server.sandbox.root, 'ph/gone.txt'), false);
    expect(existsSync(join(server.sandbox.root, 'ph/info.txt'))).toBe(true);

    const more = toolbar(page).getByRole('button', { name: 'More actions', exact: true });
    await more.focus();
    await page.keyboard.press('ArrowDown');
    const menu = page.getByRole('menu', { name: 'More actions', exact: true });
    await menu.waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toMatch(/^menuitem/);
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    expect(await more.evaluate((b) => b === document.activeElement)).toBe(true);
  });

  it('keeps Delete on the bar beside a selection at 320 px in Arabic too (Clear shrinks to its icon)', async () => {
    const { page } = browser;
    await updateAdmin(api, { locale: 'ar' });
    try {
      await page.setViewportSize({ width: 320, height: 640 });
      await page.goto(`${server.url}/files/ph/`);
      await page.getByRole('option', { name: 'info.txt', exact: true }).click();
      const bar = page.getByRole('toolbar', { name: 'إجراءات الملفات', exact: true });
      await bar.getByRole('button', { name: 'حذف', exact: true }).click({ trial: true });
      await page.getByRole('button', { name: 'مسح التحديد', exact: true }).click();
      await bar.getByRole('button', { name: 'حذف', exact: true }).and(page.locator(':disabled')).waitFor();
      await expectAllWhole(page);
    } finally {
      await updateAdmin(api, { locale: 'en' });
    }
  });

  it('looks right (phone light, dark and Arabic; desktop unchanged)', async () => {
    const { page } = browser;
    const variants = [
      { name: 'phone-light', width: 390, height: 844, theme: '', locale: 'en' },
      { name: 'phone-dark', width: 390, height: 844, theme: 'dark', locale: 'en' },
      { name: 'phone-ar', width: 390, height: 844, theme: '', locale: 'ar' },
      { name: 'phone-320-ar', width: 320, height: 640, theme: 'dark', locale: 'ar' },
      { name: 'desktop-light', width: 1280, height: 800, theme: '', locale: 'en' },
      { name: 'desktop-ar', width: 1280, height: 800, theme: 'dark', locale: 'ar' },
    ];
    for (const v of variants) {
      await updateAdmin(api, { locale: v.locale });
      await page.setViewportSize({ width: v.width, height: v.height });
      await page.goto(`${server.url}/files/`);
      await page.evaluate((theme) => localStorage.setItem('filemgr.theme', theme), v.theme);
      await page.goto(`${server.url}/files/ph/`);
      // The listbox's name is translated: the item is found by its own name.
      await page.getByRole('option', { name: 'info.txt', exact: true }).click();
      const bar = page.getByRole('toolbar');
      await bar.waitFor();
      await expectAllWhole(page);
      const more = bar.locator('[aria-haspopup="menu"]');
      if (v.width < 700) {
        await more.click();
        await page.getByRole('menu').waitFor();
      } else {
        expect(await more.count()).toBe(0);
      }
      await screenshot(page, `phone-toolbar-${v.name}`);
    }
    await updateAdmin(api, { locale: 'en' });
    await page.evaluate(() => localStorage.removeItem('filemgr.theme'));
  });
});
