import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, startServer, type BrowserHandle, type ServerHandle, shutDown } from './support/harness';
import { apiAs, signIn } from './support/session';

// The server answers 400 (the current password is incorrect); the notice says it in a sentence of its own.
const REFUSAL = 'The current password is incorrect.';
const TRACKER = 'https://git.example/team/files/issues/new';

/**
 * Causes an error notice: saving the admin's own user with a wrong "Your password" (the server
 * answers 400 and the notice shows REFUSAL). Resolves with that notice.
 */
async function causeError(page: Page, server: ServerHandle): Promise<Locator> {
  await page.goto(`${server.url}/settings/users/1`);
  const current = page.getByLabel('Your password', { exact: true });
  await current.fill(`${server.password}-wrong`);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  const alert = page.getByRole('alert').filter({ hasText: REFUSAL });
  await alert.waitFor();
  return alert;
}

describe('notices', () => {
  let server: ServerHandle;
  let browser: BrowserHandle;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    await signIn(browser.page, server);
  });

  afterAll(() => shutDown(browser, server));

  it('shows a success as a status that goes away by itself', async () => {
    const { page } = browser;
    await page.goto(`${server.url}/settings/profile`);
    await page.getByRole('button', { name: 'Update', exact: true }).first().click();
    const notice = page.getByRole('status').filter({ hasText: 'Settings updated!' });
    // First on screen (this wait fails otherwise)...
    await notice.waitFor({ state: 'visible' });
    // ...then gone by itself, after about a second (product.md §8); the bound here only keeps a stuck notice from hanging the test.
    await notice.waitFor({ state: 'detached', timeout: 10_000 });
  });

  it('shows an error as an alert with "Close" that stays until closed, without "Report Issue" when no issue tracker is set', async () => {
    const { page } = browser;
    const alert = await causeError(page, server);
    await alert.getByRole('button', { name: 'Close', exact: true }).waitFor();
    // filemgr has no issue tracker of its own: a new instance offers no link to a made-up one.
    expect(await alert.getByRole('link').count()).toBe(0);
    // An error notice must not time out (product.md §8): waiting a fixed while and finding it still
    // there is the point of this check (a success would have been gone after about 1 s).
    await page.waitForTimeout(2000);
    expect(await alert.isVisible()).toBe(true);
    await alert.getByRole('button', { name: 'Close', exact: true }).click();
    await alert.waitFor({ state: 'detached' });
    expect(await page.getByRole('alert').count()).toBe(0);
  });

  it('links "Report Issue" to the issue tracker set in branding, in a new tab', async () => {
    const { page } = browser;
    const api = await apiAs(server);
    const settings = await api.json<{ branding: Record<string, unknown> }>('/api/settings');
    const saved = await api.call('PUT', '/api/settings', { ...settings, branding: { ...settings.branding, issueTracker: TRACKER } });
    expect(saved.status).toBe(200);

    const alert = await causeError(page, server);
    const link = alert.getByRole('link', { name: 'Report Issue', exact: true });
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe(TRACKER);
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
    await alert.getByRole('button', { name: 'Close', exact: true }).click();
    await alert.waitFor({ state: 'detached' });
  });

  it('leaves out "Report Issue" when external links are disabled, even with an issue tracker set', async () => {
    const { page } = browser;
    const api = await apiAs(server);
    const settings = await api.json<{ branding: Record<string, unknown> }>('/api/settings');
    const saved = await api.call('PUT', '/api/settings', { ...settings, branding: { ...settings.branding, disableExternal: true } });
    expect(saved.status).toBe(200);
    const branding = (await api.json<{ branding: { disableExternal: boolean; issueTracker: string } }>('/api/settings')).branding;
    expect(branding).toMatchObject({ disableExternal: true, issueTracker: TRACKER });

    const alert = await causeError(page, server);
    await alert.getByRole('button', { name: 'Close', exact: true }).waitFor();
    expect(await alert.getByRole('link').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Report Issue' }).count()).toBe(0);
    await alert.getByRole('button', { name: 'Close', exact: true }).click();
    await alert.waitFor({ state: 'detached' });
  });
});
