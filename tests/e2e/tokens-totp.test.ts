import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot, startServer, shutDown, type BrowserHandle, type ServerHandle } from './support/harness';
import { shootLooks } from './support/looks';
import { apiAs, signIn, watchProblems, type ApiClient } from './support/session';

const run = promisify(execFile);

/** The code an authenticator app shows for `secret`, `steps` 30-second steps from now. */
const codeAt = (secret: string, steps = 0): string =>
  new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + steps * 30_000 });

const PASSWORD = 'Carol-e2e-Passw0rd!';

async function addUser(server: ServerHandle, api: ApiClient, username: string): Promise<void> {
  const data = { username, password: PASSWORD, scope: '.', locale: 'en', perm: { create: true, delete: true, download: true, rename: true, modify: true, share: true } };
  const { status, text } = await api.call('POST', '/api/users', { what: 'user', which: [], current_password: server.password, data });
  if (status !== 201) throw new Error(`POST /api/users answered ${status}: ${text}`);
}

async function openProfile(page: Page, server: ServerHandle): Promise<void> {
  await page.goto(`${server.url}/settings/profile`);
  await page.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
}

/** Signs in through the form up to the point where the server asks for the code. */
async function passwordStep(page: Page, server: ServerHandle, username: string): Promise<void> {
  await page.goto(`${server.url}/login`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Login' }).click();
}

describe('API tokens and two-factor sign-in in the browser', () => {
  let server: ServerHandle;
  let browser: BrowserHandle;
  let admin: ApiClient;
  let problems: string[];

  beforeAll(async () => {
    server = await startServer({ tree: { 'report.txt': 'quarterly' } });
    browser = await launchBrowser();
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    admin = await apiAs(server);
    problems = watchProblems(browser.page);
  }, 60_000);

  afterAll(() => shutDown(browser, server));

  it('enrols with the QR code secret, signs out, and signs in again with a code', async () => {
    const { page } = browser;
    await addUser(server, admin, 'carol');
    await signIn(page, server, { username: 'carol', password: PASSWORD });
    await openProfile(page, server);
    await page.getByRole('button', { name: 'Set up' }).click();
    const qr = page.getByRole('img', { name: 'QR code' });
    await qr.waitFor();
    expect(await qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
    const secret = await page.getByRole('textbox', { name: 'Key' }).inputValue();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await page.getByRole('textbox', { name: 'Code' }).fill(codeAt(secret));
    await page.getByRole('button', { name: 'Verify' }).click();
    const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
    await codes.first().waitFor();
    expect(await codes.count()).toBe(10);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download' }).click()]);
    expect(download.suggestedFilename()).toBe('filemgr-recovery-codes.txt');
    const text = await readFile(await download.path(), 'utf8');
    expect(text.trim().split('\n')).toEqual(await codes.allTextContents());

    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL(/\/login/);
    await passwordStep(page, server, 'carol');
    const code = page.getByRole('textbox', { name: 'Code' });
    await code.waitFor();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Enter the code from your authenticator app.');
    await screenshot(page, 'totp-login-code-desktop-light-en');
    // The next step's code: the one used to enrol is spent (a code is accepted once).
    await code.fill(codeAt(secret, 1));
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL(/\/files\/$/);
    await openProfile(page, server);
    await page.getByText('Two-factor sign-in is on. Recovery codes left: 10.').waitFor();
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL(/\/login/);
  });

  it('sends a user without two-factor sign-in to its enrolment when the server requires it', async () => {
    const { page } = browser;
    const settings = await admin.json<Record<string, unknown>>('/api/settings');
    expect((await admin.call('PUT', '/api/settings', { ...settings, requireTotp: true })).status).toBe(200);
    try {
      await addUser(server, admin, 'dave');
      await passwordStep(page, server, 'dave');
      await page.waitForURL(/\/settings\/profile$/);
      await page.getByRole('alert').filter({ hasText: 'Your administrator requires two-factor sign-in.' }).waitFor();
      await page.getByRole('button', { name: 'Logout' }).click();
      await page.waitForURL(/\/login/);
    } finally {
      await admin.call('PUT', '/api/settings', { ...settings, requireTotp: false });
    }
  });

  it('creates a token in the dialog, copies it, uses it with curl and revokes it', async () => {
    const { page } = browser;
    await signIn(page, server);
    await openProfile(page, server);
    await page.getByRole('button', { name: 'New token' }).click();
    const dialog = page.getByRole('dialog', { name: 'New token' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('backup script');
    await dialog.getByRole('spinbutton', { name: 'Expires in days' }).fill('7');
    await dialog.getByRole('checkbox', { name: 'Delete' }).uncheck();
    await dialog.getByRole('button', { name: 'Create' }).click();
    const tokenBox = dialog.getByRole('textbox', { name: 'Token' });
    await tokenBox.waitFor();
    expect(await tokenBox.getAttribute('readonly')).not.toBeNull();
    const token = await tokenBox.inputValue();
    expect(token).toMatch(/^fm_[A-Za-z0-9_-]{43}$/);
    await dialog.getByRole('button', { name: 'Copy' }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(token);
    await dialog.getByRole('button', { name: 'Done' }).click();
    const row = page.getByRole('row').filter({ hasText: 'backup script' });
    await row.waitFor();

    const curl = async (): Promise<string> =>
      (await run('curl', ['-s', '-o', '/dev/null', '-w', '%{http_code}', '-H', `Authorization: Bearer ${token}`, `${server.url}/api/resources/report.txt`])).stdout;
    expect(await curl()).toBe('200');
    const body = await run('curl', ['-s', '-H', `X-Auth: ${token}`, `${server.url}/api/raw/report.txt`]);
    expect(body.stdout).toBe('quarterly');
    // Without "Delete" the token cannot delete, though its owner can.
    const del = await fetch(`${server.url}/api/resources/report.txt`, { method: 'DELETE', headers: { Authorization: `Bearer ${token}` } });
    expect(del.status).toBe(403);

    await page.reload();
    await expect.poll(() => row.getByText('Never').count()).toBe(0);
    await row.getByRole('button', { name: 'Revoke' }).click();
    await row.waitFor({ state: 'detached' });
    expect(await curl()).toBe('401');
  });

  it('looks right: the profile sections and the New token dialog (desktop, phone, dark, ar)', async () => {
    const { page } = browser;
    await admin.call('POST', '/api/tokens', { name: 'nightly sync', expiresInDays: 30 });
    for (const locale of ['en', 'ar']) {
      await shootLooks(page, admin, {
        name: 'tokens-totp-profile', locale, show: async () => {
          await page.goto(`${server.url}/settings/profile`);
          await page.locator('#two-factor-title').waitFor();
          await page.locator('#two-factor-title ~ .card-body .button-primary').click();
          await page.locator('.two-factor-qr[src]').waitFor();
          // A full-page shot of a scrolled page draws the fixed header midway.
          await page.evaluate(() => window.scrollTo(0, 0));
        },
      });
      await shootLooks(page, admin, {
        name: 'tokens-new-dialog', locale, show: async () => {
          await page.goto(`${server.url}/settings/profile`);
          await page.locator('#api-tokens-title ~ .card-actions .button-primary').click();
          await page.getByRole('dialog').waitFor();
          await page.evaluate(() => window.scrollTo(0, 0));
        },
      });
    }
    expect(problems.filter((p) => !/401|Unauthorized/.test(p))).toEqual([]);
  });
});
