// WCAG 2.1 AA checks by axe-core on every screen a person reaches, in light, dark and Arabic: the
// names of ui.md are tested elsewhere; this catches what names alone do not (contrast, roles
// nested wrongly, duplicate ids, controls without a name).
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from './support/axe';
import { button, dialog, item, openFolder, updateAdmin } from './support/files';
import { launchBrowser, startServer, shutDown, type BrowserHandle, type ServerHandle } from './support/harness';
import { apiAs, signIn, type ApiClient } from './support/session';

const TREE = {
  'Documents/report.txt': 'quarterly figures\n',
  'Pictures/.keep': '',
  'notes.md': '# notes\n',
  'todo.txt': 'milk\n',
};

interface Screen {
  name: string;
  /** Brings the page to the screen and waits until it is there. */
  open: (page: Page, server: ServerHandle) => Promise<void>;
}

const settled = async (page: Page): Promise<void> => {
  await page.waitForLoadState('networkidle');
  // Transitions end before axe reads colours.
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))));
};

const SCREENS: Screen[] = [
  { name: 'listing', open: (page, server) => openFolder(page, server, { folder: '/', expect: 'todo.txt' }) },
  {
    name: 'listing with a selection',
    open: async (page, server) => {
      await openFolder(page, server, { folder: '/', expect: 'todo.txt' });
      await item(page, 'notes.md').click();
    },
  },
  {
    name: 'new folder dialog',
    open: async (page, server) => {
      await openFolder(page, server, { folder: '/', expect: 'todo.txt' });
      await page.getByRole('button', { name: 'New folder', exact: true }).click();
      await dialog(page, 'New folder').waitFor();
    },
  },
  {
    name: 'file information dialog',
    open: async (page, server) => {
      await openFolder(page, server, { folder: '/', expect: 'todo.txt' });
      await item(page, 'todo.txt').click();
      await button(page, 'Info').click();
      await dialog(page, 'File information').waitFor();
    },
  },
  {
    name: 'share dialog',
    open: async (page, server) => {
      await openFolder(page, server, { folder: '/', expect: 'todo.txt' });
      await item(page, 'todo.txt').click();
      await button(page, 'Share').click();
      await dialog(page, 'Share').waitFor();
    },
  },
  {
    name: 'upload dialog',
    open: async (page, server) => {
      await openFolder(page, server, { folder: '/', expect: 'todo.txt' });
      await button(page, 'Upload').click();
      await dialog(page, 'Upload').waitFor();
    },
  },
  {
    name: 'search overlay',
    open: async (page, server) => {
      await openFolder(page, server, { folder: '/', expect: 'todo.txt' });
      await button(page, 'Search').click();
      await page.getByRole('searchbox', { name: 'Search', exact: true }).waitFor();
    },
  },
  {
    name: 'search results, the match marked',
    open: async (page, server) => {
      await openFolder(page, server, { folder: '/', expect: 'todo.txt' });
      await button(page, 'Search').click();
      await page.getByRole('searchbox', { name: 'Search', exact: true }).fill('o');
      await page.getByRole('link', { name: 'Documents/report.txt', exact: true }).locator('mark').first().waitFor();
    },
  },
  { name: 'profile settings', open: (page, server) => page.goto(`${server.url}/settings/profile`).then(() => page.getByRole('combobox', { name: 'Theme' }).waitFor()) },
  { name: 'share management', open: (page, server) => page.goto(`${server.url}/settings/shares`).then(() => page.getByRole('main').waitFor()) },
  { name: 'global settings', open: (page, server) => page.goto(`${server.url}/settings/global`).then(() => page.getByRole('textbox', { name: 'Instance name' }).waitFor()) },
  { name: 'user management', open: (page, server) => page.goto(`${server.url}/settings/users`).then(() => page.getByRole('table').waitFor()) },
  { name: 'new user', open: (page, server) => page.goto(`${server.url}/settings/users/new`).then(() => page.getByRole('textbox', { name: 'Scope' }).waitFor()) },
  { name: 'not found', open: (page, server) => page.goto(`${server.url}/files/no-such-folder/`).then(() => page.getByText("This location can't be reached.").waitFor()) },
];

describe('accessibility (axe-core, WCAG 2.1 AA)', () => {
  let server: ServerHandle;
  let browser: BrowserHandle;
  let api: ApiClient;

  beforeAll(async () => {
    server = await startServer({ tree: TREE });
    browser = await launchBrowser();
    api = await apiAs(server);
  });

  afterAll(() => shutDown(browser, server));

  it('finds nothing on the login page', async () => {
    const { page } = browser;
    await page.goto(`${server.url}/login`);
    await page.getByRole('button', { name: 'Login', exact: true }).waitFor();
    await settled(page);
    expect(await axeViolations(page)).toEqual([]);
    await signIn(page, server);
  });

  describe.each([
    { look: 'light', theme: 'light' },
    { look: 'dark', theme: 'dark' },
  ])('in $look', ({ theme }) => {
    beforeAll(() => browser.page.evaluate((t) => localStorage.setItem('filemgr.theme', t), theme));
    afterAll(() => browser.page.evaluate(() => localStorage.removeItem('filemgr.theme')));

    it.each(SCREENS)('finds nothing on the $name screen', async (screen) => {
      const { page } = browser;
      await screen.open(page, server);
      await page.waitForFunction((want) => document.documentElement.dataset.theme === want, theme);
      await settled(page);
      expect(await axeViolations(page)).toEqual([]);
      await page.keyboard.press('Escape');
    });
  });

  describe('in Arabic (right to left)', () => {
    beforeAll(() => updateAdmin(api, { locale: 'ar' }));
    afterAll(() => updateAdmin(api, { locale: 'en' }));

    // The names are Arabic here: each screen is awaited by its structure.
    it.each([
      { name: 'listing', path: '/files/', ready: '[data-path="/todo.txt"]' },
      { name: 'profile settings', path: '/settings/profile', ready: 'main select' },
      { name: 'global settings', path: '/settings/global', ready: 'main input' },
    ])('finds nothing on the $name screen', async ({ path, ready }) => {
      const { page } = browser;
      await page.goto(`${server.url}${path}`);
      await page.waitForFunction(() => document.documentElement.lang === 'ar' && document.documentElement.dir === 'rtl');
      await page.locator(ready).first().waitFor();
      await settled(page);
      expect(await axeViolations(page)).toEqual([]);
    });
  });
});
