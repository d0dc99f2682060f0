import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot, startServer, type BrowserHandle, type ServerHandle, shutDown } from './support/harness';
import { apiAs, signIn, watchProblems, type ApiClient } from './support/session';
import { createUserByApi, patchSettings, strongPassword } from './support/settings';

// Every settings screen in light and dark, at desktop and phone width (product.md §9: the mobile
// layout applies at width <= 736) and right to left in Arabic (product.md §1): a screenshot each,
// no horizontal overflow on a phone, and the share actions reachable on a phone.

type Messages = { [key: string]: string | Messages };

function loadMessages(code: string): Messages {
  return JSON.parse(readFileSync(fileURLToPath(new URL(`../../web/i18n/locales/${code}.json`, import.meta.url)), 'utf8')) as Messages;
}

const MESSAGES: Record<string, Messages> = { en: loadMessages('en'), ar: loadMessages('ar') };

/** The UI text of `key` ("shares.copyLink") in `locale`: the accessible names the screens use there. */
function text(locale: string, key: string): string {
  let node: string | Messages | undefined = MESSAGES[locale];
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  if (typeof node !== 'string') throw new Error(`no message ${key} in ${locale}`);
  return node;
}

interface Screen {
  name: string;
  path: string;
  /** An element that is there once the screen has its data. */
  ready: (page: Page, locale: string) => Locator;
}

const SCREENS: Screen[] = [
  { name: 'profile', path: '/settings/profile', ready: (p, l) => p.getByRole('button', { name: text(l, 'settings.save'), exact: true }).first() },
  { name: 'shares', path: '/settings/shares', ready: (p, l) => p.getByRole('button', { name: text(l, 'shares.copyLink'), exact: true }).first() },
  { name: 'global', path: '/settings/global', ready: (p, l) => p.getByRole('heading', { name: text(l, 'global.commandRunner'), exact: true }) },
  { name: 'users', path: '/settings/users', ready: (p) => p.getByRole('cell').filter({ hasText: /^bob$/ }) },
  { name: 'user-1', path: '/settings/users/1', ready: (p, l) => p.getByRole('button', { name: text(l, 'users.delete'), exact: true }) },
  { name: 'user-new', path: '/settings/users/new', ready: (p, l) => p.getByRole('button', { name: text(l, 'users.save'), exact: true }) },
];

interface Variant {
  name: string;
  phone: boolean;
  dark: boolean;
  locale: 'en' | 'ar';
}

const VARIANTS: Variant[] = [
  { name: 'desktop-light', phone: false, dark: false, locale: 'en' },
  { name: 'desktop-dark', phone: false, dark: true, locale: 'en' },
  { name: 'phone-light', phone: true, dark: false, locale: 'en' },
  { name: 'phone-dark', phone: true, dark: true, locale: 'en' },
  { name: 'desktop-ar', phone: false, dark: false, locale: 'ar' },
  { name: 'phone-ar', phone: true, dark: false, locale: 'ar' },
];

/** The page's width against the window's (wider means a horizontal scroll bar on a phone). */
function overflow(page: Page): Promise<{ scrollWidth: number; innerWidth: number }> {
  return page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
}

/** Scrolls `button` into view and returns where it is against the window's width. */
async function placement(page: Page, button: Locator): Promise<{ visible: boolean; left: number; right: number; width: number }> {
  await button.scrollIntoViewIfNeeded();
  const box = await button.boundingBox();
  const width = await page.evaluate(() => window.innerWidth);
  return { visible: await button.isVisible(), left: box?.x ?? -1, right: (box?.x ?? 0) + (box?.width ?? 0), width };
}

/** Every share row's "Copy link" and "Delete" can be scrolled to and lie inside the window's width. */
async function expectShareActionsOnScreen(page: Page, locale: string): Promise<void> {
  for (const key of ['shares.copyLink', 'shares.delete']) {
    const buttons = page.getByRole('main').getByRole('button', { name: text(locale, key), exact: true });
    expect(await buttons.count()).toBe(3);
    for (const button of await buttons.all()) {
      const at = await placement(page, button);
      expect({ key, visible: at.visible, inside: at.left >= 0 && at.right <= at.width }).toEqual({ key, visible: true, inside: true });
    }
  }
}

describe('the settings screens in every layout', () => {
  let server: ServerHandle;
  let browser: BrowserHandle;
  let api: ApiClient;
  let problems: string[];
  let locale = 'en';

  beforeAll(async () => {
    server = await startServer({ args: ['--disableExec=false'], tree: { 'docs/report.txt': 'quarterly figures', 'photos/a.txt': 'a' } });
    browser = await launchBrowser();
    // A local server answers at once: a missing control fails in seconds rather than half a minute.
    browser.page.setDefaultTimeout(10_000);
    api = await apiAs(server);
    expect((await api.call('POST', '/api/share/docs/report.txt', { expires: '2', unit: 'hours', password: '' })).status).toBe(200);
    expect((await api.call('POST', '/api/share/photos/', { expires: '', unit: 'hours', password: '' })).status).toBe(200);
    const password = strongPassword('bob');
    await createUserByApi(api, server.password, { username: 'bob', password, scope: '/' });
    const bob = await apiAs(server, 'bob', password);
    expect((await bob.call('POST', '/api/share/docs/', { expires: '3', unit: 'days', password: '' })).status).toBe(200);
    // A rule and commands, so that the Global Settings screens show them.
    await patchSettings(api, (s) => ({
      ...s,
      rules: [{ allow: false, path: '/private', regex: false, regexp: { raw: '' } }],
      shell: ['/bin/sh', '-c'],
      commands: { ...s.commands, before_save: ['echo saving'] },
      defaults: { ...s.defaults, commands: ['ls', 'echo'] },
    }));
    problems = watchProblems(browser.page);
    await signIn(browser.page, server);
  });

  /** Sets the admin's language (PUT /api/users/1 which=['locale']); the next page load shows it. */
  async function useLocale(code: string): Promise<void> {
    if (code === locale) return;
    const answer = await api.call('PUT', '/api/users/1', { what: 'user', which: ['locale'], data: { id: 1, locale: code } });
    expect(answer.status).toBe(200);
    locale = code;
  }

  afterAll(() => shutDown(browser, server));

  it.each(VARIANTS)('shows every settings screen: $name', async (variant) => {
    const { page } = browser;
    await page.setViewportSize(variant.phone ? { width: 390, height: 844 } : { width: 1280, height: 800 });
    await page.evaluate((dark) => localStorage.setItem('filemgr.theme', dark ? 'dark' : ''), variant.dark);
    await useLocale(variant.locale);
    await page.reload();

    // Collected over every screen, so that one overflowing screen does not hide the others.
    const overflowBy: Record<string, number> = {};
    for (const screen of SCREENS) {
      await page.goto(`${server.url}${screen.path}`);
      await screen.ready(page, variant.locale).waitFor();
      await page.waitForFunction(
        ([dir, theme]) => document.documentElement.dir === dir && (document.documentElement.dataset.theme ?? '') === theme,
        [variant.locale === 'ar' ? 'rtl' : 'ltr', variant.dark ? 'dark' : 'light'],
      );
      await page.evaluate(async () => {
        await document.fonts.ready;
      });
      await screenshot(page, `settings-${screen.name}-${variant.name}`);
      if (!variant.phone) continue;
      const { scrollWidth, innerWidth } = await overflow(page);
      overflowBy[screen.name] = Math.max(0, scrollWidth - innerWidth);
      if (screen.name === 'shares') await expectShareActionsOnScreen(page, variant.locale);
    }
    if (variant.phone) expect(overflowBy).toEqual(Object.fromEntries(SCREENS.map(({ name }) => [name, 0])));
  });

  it('shows path and command fields left to right in Arabic', async () => {
    const { page } = browser;
    await useLocale('ar');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${server.url}/settings/global`);
    await page.getByRole('heading', { name: text('ar', 'global.commandRunner'), exact: true }).waitFor();
    await page.waitForFunction(() => document.documentElement.dir === 'rtl');
    const rule = page.getByRole('group', { name: text('ar', 'rules.rule').replace('{{n}}', '1'), exact: true });
    const fields: [string, Locator][] = [
      ['base path', page.getByRole('textbox', { name: text('ar', 'global.userHomeBasePath'), exact: true })],
      ['branding directory', page.getByRole('textbox', { name: text('ar', 'global.brandingFiles'), exact: true })],
      ['rule path', rule.getByRole('textbox', { name: text('ar', 'rules.path'), exact: true })],
      ['shell', page.getByRole('textbox', { name: text('ar', 'global.shell'), exact: true })],
      ['before_save', page.getByRole('textbox', { name: 'before_save', exact: true })],
      ['default scope', page.getByRole('textbox', { name: text('ar', 'users.scope'), exact: true })],
      ['default commands', page.getByRole('textbox', { name: text('ar', 'users.commands'), exact: true })],
    ];
    await page.getByRole('textbox', { name: 'after_delete', exact: true }).waitFor();
    // Every field at once, so that the difference names each one written right to left (or not found).
    const directions = await Promise.all(fields.map(async ([name, field]) => [
      name,
      (await field.count()) === 1 ? await field.evaluate((el) => getComputedStyle(el).direction) : 'no single field by that name',
    ]));
    expect(Object.fromEntries(directions)).toEqual(Object.fromEntries(fields.map(([name]) => [name, 'ltr'])));
  });

  it('draws the shared paths left to right in Arabic', async () => {
    const { page } = browser;
    await useLocale('ar');
    // A path drawn right to left puts its leading "/" at the far end ("docs/report.txt/").
    await page.goto(`${server.url}/settings/shares`);
    const link = page.getByRole('main').getByRole('link', { name: '/docs/report.txt', exact: true });
    await link.waitFor();
    const slashFirst = await link.evaluate((el) => {
      const node = el.firstChild;
      if (!node) return false;
      const rect = (start: number): DOMRect => {
        const range = document.createRange();
        range.setStart(node, start);
        range.setEnd(node, start + 1);
        return range.getBoundingClientRect();
      };
      return rect(0).left < rect(1).left;
    });
    expect(slashFirst).toBe(true);
  });

  it('ran without a script error', () => {
    expect(problems).toEqual([]);
  });
});
