import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot, startServer, type BrowserHandle, type ServerHandle, shutDown } from './support/harness';
import { apiAs, signIn, watchProblems } from './support/session';

/** `data-theme` of <html> and the relative luminance (0 black .. 1 white) of the body's background. */
function lookOf(page: Page): Promise<{ theme: string | undefined; luminance: number }> {
  return page.evaluate(() => {
    const parts = (getComputedStyle(document.body).backgroundColor.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map(Number);
    const [r = 0, g = 0, b = 0] = parts.map((v) => {
      const c = v / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return { theme: document.documentElement.dataset.theme, luminance: 0.2126 * r + 0.7152 * g + 0.0722 * b };
  });
}

/** Waits until the page shows the theme `theme` ('light' or 'dark'), then checks the body agrees. */
async function expectTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  await page.waitForFunction((want) => document.documentElement.dataset.theme === want, theme);
  const look = await lookOf(page);
  if (theme === 'dark') expect(look.luminance).toBeLessThan(0.1);
  else expect(look.luminance).toBeGreaterThan(0.7);
}

async function openProfile(page: Page, server: ServerHandle): Promise<void> {
  await page.goto(`${server.url}/settings/profile`);
  await page.getByRole('combobox', { name: 'Theme', exact: true }).waitFor();
}

/** Picks `label` in the profile's "Theme" list and saves the profile card. */
async function chooseTheme(page: Page, label: 'Light' | 'Dark'): Promise<void> {
  await page.getByRole('combobox', { name: 'Theme', exact: true }).selectOption({ label });
  await page.getByRole('button', { name: 'Update', exact: true }).first().click();
  const notice = page.getByRole('status').filter({ hasText: 'Settings updated!' });
  await notice.waitFor();
  // The screenshots are taken without the notice over the page.
  await notice.waitFor({ state: 'detached' });
}

describe('the theme', () => {
  let server: ServerHandle;
  let browser: BrowserHandle;
  let problems: string[];

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    problems = watchProblems(browser.page);
    // The system asks for dark: the app must still start light (product.md §3: '' is light).
    await browser.page.emulateMedia({ colorScheme: 'dark' });
    await signIn(browser.page, server);
  });

  afterAll(() => shutDown(browser, server));

  it('is light when nothing is chosen, even when the system prefers dark', async () => {
    const { page } = browser;
    await openProfile(page, server);
    expect(await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches)).toBe(true);
    expect(await page.getByRole('combobox', { name: 'Theme', exact: true }).inputValue()).toBe('');
    await expectTheme(page, 'light');
  });

  it('turns dark when "Dark" is saved, and stays dark after a reload', async () => {
    const { page } = browser;
    await openProfile(page, server);
    await chooseTheme(page, 'Dark');
    await expectTheme(page, 'dark');
    await screenshot(page, 'profile-dark');

    await page.reload();
    await page.getByRole('combobox', { name: 'Theme', exact: true }).waitFor();
    await expectTheme(page, 'dark');
    expect(await page.getByRole('combobox', { name: 'Theme', exact: true }).inputValue()).toBe('dark');
  });

  it('turns light again when "Light" is saved', async () => {
    const { page } = browser;
    await openProfile(page, server);
    await chooseTheme(page, 'Light');
    await expectTheme(page, 'light');
    await screenshot(page, 'profile-light');

    await page.reload();
    await page.getByRole('combobox', { name: 'Theme', exact: true }).waitFor();
    await expectTheme(page, 'light');
  });

  it('follows a dark branding theme in a browser without its own choice, from the login page on', async () => {
    const api = await apiAs(server);
    const settings = await api.json<{ branding: Record<string, unknown> }>('/api/settings');
    const saved = await api.call('PUT', '/api/settings', { ...settings, branding: { ...settings.branding, theme: 'dark' } });
    expect(saved.status).toBe(200);

    const fresh = await launchBrowser();
    try {
      const freshProblems = watchProblems(fresh.page);
      await fresh.page.goto(`${server.url}/login`);
      await fresh.page.getByRole('button', { name: 'Login', exact: true }).waitFor();
      await expectTheme(fresh.page, 'dark');
      await screenshot(fresh.page, 'login-dark');

      await signIn(fresh.page, server);
      await expectTheme(fresh.page, 'dark');
      await openProfile(fresh.page, server);
      await expectTheme(fresh.page, 'dark');
      expect(await fresh.page.getByRole('combobox', { name: 'Theme', exact: true }).inputValue()).toBe('dark');
      expect(freshProblems).toEqual([]);
    } finally {
      await fresh.close();
    }
  });

  it('keeps the own choice of Light over a dark branding theme', async () => {
    const { page } = browser;
    await openProfile(page, server);
    await expectTheme(page, 'light');
  });

  it('shows no script error or Content-Security-Policy violation', () => {
    expect(problems).toEqual([]);
  });
});
