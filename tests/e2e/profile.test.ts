import { readFileSync } from 'node:fs';
import { utimes } from 'node:fs/promises';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot, startServer, type BrowserHandle, type ServerHandle, shutDown } from './support/harness';
import { apiAs, signIn, watchProblems } from './support/session';

/** The fields of GET /api/users/N this file reads. */
interface ProfileFields {
  locale: string;
  hideDotfiles: boolean;
  singleClick: boolean;
  dateFormat: boolean;
}

/** The texts of a UI language (web/i18n/locales/<code>.json): ui.md's names in that language. */
interface Messages {
  titles: { profile: string };
  settings: { tabs: string; language: string; save: string; updated: string };
}

function messages(code: string): Messages {
  return JSON.parse(readFileSync(new URL(`../../web/i18n/locales/${code}.json`, import.meta.url), 'utf8')) as Messages;
}

const CHECKBOXES = ['Hide dotfiles', 'Use single clicks to open files and folders', 'Show exact dates'];
const TWO_HOURS_MS = 2 * 60 * 60 * 1000;

/** The profile card's "Update" (the first of the page; the password card has the second). */
function profileUpdate(page: Page, name = 'Update'): Locator {
  return page.getByRole('button', { name, exact: true }).first();
}

/** The modification time shown for the listing item `name` (an `option` named by the item, ui.md "Files screen"). */
function modifiedOf(page: Page, name: string): Locator {
  return page.getByRole('listbox', { name: 'Files and folders' }).getByRole('option', { name, exact: true }).locator('time');
}

async function openProfile(page: Page, server: ServerHandle): Promise<void> {
  await page.goto(`${server.url}/settings/profile`);
  await page.getByRole('checkbox', { name: 'Hide dotfiles', exact: true }).waitFor();
}

/** `<html lang dir>` of the page. */
function htmlLangDir(page: Page): Promise<{ lang: string; dir: string }> {
  return page.evaluate(() => ({ lang: document.documentElement.lang, dir: document.documentElement.dir }));
}

describe('the profile settings screen', () => {
  let server: ServerHandle;
  let browser: BrowserHandle;
  let problems: string[];
  /** The exact date the listing showed as the tooltip of the relative time. */
  let exactTooltip = '';

  beforeAll(async () => {
    server = await startServer({ tree: { 'notes.txt': 'x' } });
    const twoHoursAgo = new Date(Date.now() - TWO_HOURS_MS);
    await utimes(join(server.sandbox.root, 'notes.txt'), twoHoursAgo, twoHoursAgo);
    browser = await launchBrowser();
    problems = watchProblems(browser.page);
    await signIn(browser.page, server);
  });

  afterAll(() => shutDown(browser, server));

  it('shows a modification time relative, with the exact date and time as its tooltip', async () => {
    const { page } = browser;
    await page.goto(`${server.url}/files/`);
    const time = modifiedOf(page, 'notes.txt');
    await time.waitFor({ state: 'attached' });
    expect(await time.textContent()).toBe('2 hours ago');
    exactTooltip = (await time.getAttribute('title')) ?? '';
    expect(exactTooltip).not.toBe('');
    expect(exactTooltip).not.toMatch(/ago/);
    // The tooltip is the moment itself: it names the year of the file's modification.
    expect(exactTooltip).toContain(String(new Date(Date.now() - TWO_HOURS_MS).getFullYear()));
  });

  it('offers the three display choices and the Language and Theme lists (Light, Dark, System), all off by default', async () => {
    const { page } = browser;
    await openProfile(page, server);
    for (const name of CHECKBOXES) expect(await page.getByRole('checkbox', { name, exact: true }).isChecked()).toBe(false);
    expect(await page.getByRole('combobox', { name: 'Language', exact: true }).inputValue()).toBe('en');
    const theme = page.getByRole('combobox', { name: 'Theme', exact: true });
    expect(await theme.locator('option').allTextContents()).toEqual(['Light', 'Dark', 'System']);
  });

  it('saves the ticked choices with "Settings updated!" and keeps them after a reload', async () => {
    const { page } = browser;
    await openProfile(page, server);
    for (const name of CHECKBOXES) await page.getByRole('checkbox', { name, exact: true }).check();
    await profileUpdate(page).click();
    await page.getByRole('status').filter({ hasText: 'Settings updated!' }).waitFor();

    const stored = await (await apiAs(server)).json<ProfileFields>('/api/users/1');
    expect(stored).toMatchObject({ hideDotfiles: true, singleClick: true, dateFormat: true, locale: 'en' });

    await page.reload();
    await page.getByRole('checkbox', { name: 'Hide dotfiles', exact: true }).waitFor();
    for (const name of CHECKBOXES) expect(await page.getByRole('checkbox', { name, exact: true }).isChecked()).toBe(true);
  });

  it('shows the exact date in the listing once "Show exact dates" is on', async () => {
    const { page } = browser;
    await page.goto(`${server.url}/files/`);
    const time = modifiedOf(page, 'notes.txt');
    await time.waitFor({ state: 'attached' });
    expect(await time.textContent()).toBe(exactTooltip);
    expect(await time.getAttribute('title')).toBeNull();
  });

  it('hides the change-password card from a user whose password is locked', async () => {
    const api = await apiAs(server);
    const password = 'Reader-Qx7!vLm2#pR9zT';
    const perm = { admin: false, execute: false, create: false, rename: false, modify: false, delete: false, share: false, download: true };
    const data = { username: 'reader', password, scope: '.', locale: 'en', lockPassword: true, perm };
    const created = await api.call('POST', '/api/users', { what: 'user', which: [], current_password: server.password, data });
    expect(created.status).toBe(201);

    const other = await launchBrowser();
    try {
      await signIn(other.page, server, { username: 'reader', password });
      await openProfile(other.page, server);
      await other.page.waitForLoadState('networkidle');
      expect(await other.page.getByLabel('New password', { exact: true }).count()).toBe(0);
      expect(await other.page.getByLabel('Confirm the new password', { exact: true }).count()).toBe(0);
      expect(await other.page.getByLabel('Your password', { exact: true }).count()).toBe(0);
      // Only the profile card's Update is left.
      expect(await other.page.getByRole('button', { name: 'Update', exact: true }).count()).toBe(1);
    } finally {
      await other.close();
    }
  });

  it('switches the interface to German when "Deutsch" is saved', async () => {
    const { page } = browser;
    const de = messages('de');
    await openProfile(page, server);
    await page.getByRole('combobox', { name: 'Language', exact: true }).selectOption({ label: 'Deutsch' });
    await profileUpdate(page).click();
    // The notice is shown in the language the save has just chosen.
    await Promise.all([
      page.getByRole('status').filter({ hasText: de.settings.updated }).waitFor(),
      page.getByRole('navigation', { name: de.settings.tabs }).getByRole('link', { name: de.titles.profile, exact: true }).waitFor(),
    ]);
    expect(await htmlLangDir(page)).toEqual({ lang: 'de', dir: 'ltr' });
    expect((await (await apiAs(server)).json<ProfileFields>('/api/users/1')).locale).toBe('de');

    // Back to English, with the German names of the same controls.
    await page.getByRole('combobox', { name: de.settings.language, exact: true }).selectOption({ label: 'English' });
    await profileUpdate(page, de.settings.save).click();
    await page.waitForFunction(() => document.documentElement.lang === 'en');
    await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Profile Settings', exact: true }).waitFor();
  });

  it('reloads into a right-to-left layout when Arabic is saved, and back when English is', async () => {
    const { page } = browser;
    const ar = messages('ar');
    await openProfile(page, server);
    await page.getByRole('combobox', { name: 'Language', exact: true }).selectOption({ label: 'العربية' });
    const reloaded = page.waitForEvent('load');
    await profileUpdate(page).click();
    await reloaded;
    await page.getByRole('navigation', { name: ar.settings.tabs }).getByRole('link', { name: ar.titles.profile, exact: true }).waitFor();
    expect(await htmlLangDir(page)).toEqual({ lang: 'ar', dir: 'rtl' });
    expect((await (await apiAs(server)).json<ProfileFields>('/api/users/1')).locale).toBe('ar');
    await screenshot(page, 'profile-ar');

    await page.getByRole('combobox', { name: ar.settings.language, exact: true }).selectOption({ label: 'English' });
    const reloadedAgain = page.waitForEvent('load');
    await profileUpdate(page, ar.settings.save).click();
    await reloadedAgain;
    await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Profile Settings', exact: true }).waitFor();
    expect(await htmlLangDir(page)).toEqual({ lang: 'en', dir: 'ltr' });
    expect((await (await apiAs(server)).json<ProfileFields>('/api/users/1')).locale).toBe('en');
  });

  it('shows no script error or Content-Security-Policy violation', () => {
    expect(problems).toEqual([]);
  });
});
