import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot, startServer, shutDown, type BrowserHandle, type ServerHandle } from './support/harness';
import { signIn, watchProblems } from './support/session';

// The profile's "System" theme and language list, and the password rule of the new-user form.

function themeList(page: Page): Locator {
  return page.getByRole('combobox', { name: 'Theme', exact: true });
}

function shownTheme(page: Page): Promise<string | undefined> {
  return page.evaluate(() => document.documentElement.dataset.theme);
}

async function openProfile(page: Page, server: ServerHandle): Promise<void> {
  await page.goto(`${server.url}/settings/profile`);
  await themeList(page).waitFor();
}

/** The text of the element that describes `control` (aria-describedby). */
function descriptionOf(control: Locator): Promise<string> {
  return control.evaluate((el) => document.getElementById(el.getAttribute('aria-describedby') ?? '')?.textContent ?? '');
}

describe('the profile choices and the new-user form', () => {
  let server: ServerHandle;
  let browser: BrowserHandle;
  let problems: string[];

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    problems = watchProblems(browser.page);
    await browser.page.emulateMedia({ colorScheme: 'light' });
    await signIn(browser.page, server);
  });

  afterAll(() => shutDown(browser, server));

  it('previews a theme as soon as it is picked, and forgets a pick that was not saved', async () => {
    const { page } = browser;
    await openProfile(page, server);
    expect(await shownTheme(page)).toBe('light');
    await themeList(page).selectOption({ label: 'Dark' });
    expect(await shownTheme(page)).toBe('dark');
    await page.getByRole('link', { name: 'Share Management', exact: true }).click();
    await page.waitForURL(/\/settings\/shares$/);
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');
  });

  it('follows the operating system with "System", at once and after saving, and keeps following it', async () => {
    const { page } = browser;
    await openProfile(page, server);
    await page.emulateMedia({ colorScheme: 'dark' });
    // Light (nothing chosen) ignores the system.
    expect(await shownTheme(page)).toBe('light');
    await themeList(page).selectOption({ label: 'System' });
    // Applied by the change's effect after React's render, not within selectOption's own event.
    await expect.poll(() => shownTheme(page)).toBe('dark');
    await page.getByRole('button', { name: 'Update', exact: true }).first().click();
    await page.getByRole('status').filter({ hasText: 'Settings updated!' }).waitFor();
    await page.reload();
    await themeList(page).waitFor();
    expect(await themeList(page).inputValue()).toBe('system');
    await expect.poll(() => shownTheme(page)).toBe('dark');
    await screenshot(page, 'profile-system-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');
    await screenshot(page, 'profile-system-light');
  });

  it('lists the languages by their own names', async () => {
    const { page } = browser;
    await openProfile(page, server);
    const names = await page.getByRole('combobox', { name: 'Language', exact: true }).locator('option').allTextContents();
    expect(names).toHaveLength(23);
    expect(names.slice(0, 4)).toEqual(['Deutsch', 'English', 'Español', 'Français']);
    const latin = names.filter((name) => /^[\p{Script=Latin}]/u.test(name));
    expect(latin).toEqual([...latin].sort((a, b) => a.localeCompare(b, 'und')));
    expect(names.indexOf('Íslenska')).toBe(names.indexOf('Italiano') - 1);
    expect(names.indexOf('Русский')).toBeGreaterThan(names.indexOf('Türkçe'));
  });

  it('shows the password rule on the new-user form before anything is sent, and marks a short password', async () => {
    const { page } = browser;
    await page.goto(`${server.url}/settings/users/new`);
    const password = page.getByLabel('Password', { exact: true });
    await password.waitFor();
    expect(await descriptionOf(password)).toBe('At least 12 characters.');
    await password.fill('short');
    expect(await password.getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, 'user-new-password-rule');
    await password.fill('long enough, surely');
    expect(await password.getAttribute('aria-invalid')).toBe('false');
  });

  it('runs without a script error', () => {
    expect(problems).toEqual([]);
  });
});
