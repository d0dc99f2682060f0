import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HELD_TEXT, OIDC_ADMIN_GROUP, OIDC_CLIENT, OIDC_SCOPES, startOidcProvider, type TestProvider } from '../support/oidc-provider';
import { launchBrowser, screenshot, shutDown, startServer, type BrowserHandle, type ServerHandle } from './support/harness';
import { apiAs, watchProblems } from './support/session';

const NAME = 'Test ID';
const BUTTON = `Sign in with ${NAME}`;

function oidcArgs(provider: TestProvider, extra: string[] = []): string[] {
  return [
    '--oidc.issuer', provider.issuer, '--oidc.clientId', OIDC_CLIENT.id, '--oidc.clientSecret', OIDC_CLIENT.secret,
    '--oidc.scopes', OIDC_SCOPES, '--oidc.adminGroup', OIDC_ADMIN_GROUP, '--oidc.name', NAME, ...extra,
  ];
}

/** The provider's own login form (oidc-provider's dev interaction): any password. */
async function providerLogin(page: Page, login: string): Promise<void> {
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
}

const alert = (page: Page) => page.getByRole('alert');

/** The login page, signed out first (a signed-in browser is sent on from /login). */
async function openLogin(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/health`);
  await page.evaluate(() => localStorage.removeItem('jwt'));
  await page.goto(`${url}/login`);
}

describe('OpenID Connect sign-in (beyond.md §4.3)', () => {
  let provider: TestProvider;
  let server: ServerHandle;
  let browser: BrowserHandle;
  let page: Page;
  let problems: string[];

  beforeAll(async () => {
    // The provider answers 503 until configured: filemgr starts while its provider is down.
    provider = await startOidcProvider();
    server = await startServer({ tree: { 'docs/a.txt': 'hello' }, args: oidcArgs(provider) });
    browser = await launchBrowser();
    page = browser.page;
    problems = watchProblems(page);
  });

  afterAll(async () => {
    await shutDown(browser, server);
    await provider.close();
  });

  it('starts and answers while the provider is down; the button then says the provider cannot be reached', async () => {
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
    await page.goto(`${server.url}/login`);
    await page.getByRole('button', { name: BUTTON }).click();
    await expect.poll(() => alert(page).textContent()).toBe(`${NAME} can't be reached right now. Try again later.`);
    expect(server.stdout()).toContain('not discovered (retried at the next sign-in)');
    expect(server.stdout() + server.stderr()).not.toContain(OIDC_CLIENT.secret);
    provider.configure({ redirectUris: [`${server.url}/api/auth/oidc/callback`], postLogoutRedirectUris: [`${server.url}/login`] });
  });

  it('signs a first-time user in through the provider\'s form, lands at the redirect target, creates them, admin by group', async () => {
    await page.goto(`${server.url}/login?redirect=${encodeURIComponent('/files/docs/')}`);
    await expect.poll(() => page.getByLabel('Username').count()).toBe(1);
    await page.getByRole('button', { name: BUTTON }).click();
    await page.waitForURL((url) => url.origin === provider.issuer);
    await providerLogin(page, 'alice');
    await page.waitForURL(`${server.url}/files/docs/`);
    await page.getByRole('row', { name: /a\.txt/ }).or(page.getByText('a.txt')).first().waitFor();
    // The one-time code is gone from the address bar and the history entry.
    expect(await page.evaluate(() => window.location.hash)).toBe('');
    const admin = await apiAs(server);
    const users = await admin.json<Array<{ username: string; perm: { admin: boolean }; lockPassword: boolean }>>('/api/users');
    expect(users.find((u) => u.username === 'alice')).toMatchObject({ perm: { admin: true }, lockPassword: true });
    expect(server.stdout() + server.stderr()).not.toContain(OIDC_CLIENT.secret);
  });

  it('logout ends the filemgr session and the provider\'s, and comes back to the login page', async () => {
    const token = await page.evaluate(() => localStorage.getItem('jwt') ?? '');
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL((url) => url.origin === provider.issuer);
    await page.getByRole('button', { name: /sign me out/i }).click();
    await page.waitForURL(`${server.url}/login`);
    await page.getByRole('button', { name: BUTTON }).waitFor();
    expect((await fetch(`${server.url}/api/renew`, { method: 'POST', headers: { 'X-Auth': token } })).status).toBe(401);
  });

  /** Signs `login` in at the provider (null: already signed in there) but stops before filemgr's callback; answers its URL. */
  async function callbackUrlFor(login: string | null): Promise<string> {
    const held = provider.holdNextCallback();
    await openLogin(page, server.url);
    await page.getByRole('button', { name: BUTTON }).click();
    // The provider asks for a login unless this browser is still signed in there.
    const form = page.locator('input[name="login"]');
    await Promise.race([held, form.waitFor().then(() => providerLogin(page, login ?? 'bob'))]);
    const url = await held;
    await page.getByText(HELD_TEXT).waitFor();
    return url;
  }

  it('refuses a wrong state', async () => {
    const url = new URL(await callbackUrlFor('bob'));
    url.searchParams.set('state', 'a-state-of-another-flow-0123456789');
    await page.goto(url.href);
    await expect.poll(() => alert(page).textContent()).toBe('The sign-in expired or was started in another window. Try again.');
    const users = await (await apiAs(server)).json<Array<{ username: string }>>('/api/users');
    expect(users.some((u) => u.username === 'bob')).toBe(false);
  });

  it('refuses a replayed code, even with the flow cookie put back', async () => {
    const callback = await callbackUrlFor(null);
    const cookie = (await browser.context.cookies(`${server.url}/api/auth/oidc/`)).find((c) => c.name === 'filemgr_oidc');
    expect(cookie).toBeDefined();
    await page.goto(callback);
    await page.waitForURL(`${server.url}/files/`);
    // The address bar says /files/ before the app has redeemed its one-time code: wait until it holds
    // its token, or signing out below races the redeem (the token comes back, and the login page
    // then sends the signed-in browser on to /files/ instead of showing the refusal).
    await expect.poll(() => page.evaluate(() => localStorage.getItem('jwt') !== null), { timeout: 15_000 }).toBe(true);
    // Signed out again (a signed-in browser is sent on from the login page), the old cookie put back.
    await page.evaluate(() => localStorage.removeItem('jwt'));
    await browser.context.addCookies([{ ...(cookie as NonNullable<typeof cookie>) }]);
    await page.goto(callback);
    await expect.poll(() => alert(page).textContent()).toBe('This sign-in was already used or has expired. Try again.');
  });

  it.each([['audience', 'for another audience'], ['expired', 'that has expired']] as const)('refuses an ID token %s (%s)', async (mode, _what) => {
    provider.tamper.mode = mode;
    try {
      await openLogin(page, server.url);
      await page.getByRole('button', { name: BUTTON }).click();
      await expect.poll(() => alert(page).textContent()).toBe(`${NAME} sent a sign-in that could not be verified.`);
      expect(new URL(page.url()).pathname).toBe('/login');
    } finally {
      provider.tamper.mode = 'none';
    }
  });

  it('sends an open redirect attempt to the app root', async () => {
    await page.goto(`${server.url}/api/auth/oidc/login?redirect=${encodeURIComponent('https://evil.example/')}`);
    await page.waitForURL(`${server.url}/files/`);
    await page.goto(`${server.url}/api/auth/oidc/login?redirect=${encodeURIComponent('//evil.example/x')}`);
    await page.waitForURL(`${server.url}/files/`);
    // Failed loads are expected here (refused sign-ins, the provider's web fonts and favicon this
    // machine cannot fetch); no script error is allowed.
    const scriptProblems = problems.filter((p) => !p.startsWith('Failed to load resource'));
    expect(scriptProblems, scriptProblems.join('\n')).toEqual([]);
  });
});

describe('OpenID only (--oidc.passwordLogin=false), and how the login page looks', () => {
  let provider: TestProvider;
  let server: ServerHandle;
  let chrome: Browser;

  beforeAll(async () => {
    provider = await startOidcProvider();
    server = await startServer({ args: oidcArgs(provider, ['--oidc.passwordLogin=false']) });
    provider.configure({ redirectUris: [`${server.url}/api/auth/oidc/callback`], postLogoutRedirectUris: [`${server.url}/login`] });
    chrome = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  });

  afterAll(async () => {
    await chrome.close();
    await shutDown(undefined, server);
    await provider.close();
  });

  it('has no password form, refuses passwords on the API, and signs in with the provider', async () => {
    const page = await chrome.newPage();
    await page.goto(`${server.url}/login`);
    await page.getByRole('button', { name: BUTTON }).waitFor();
    expect(await page.getByLabel('Username').count()).toBe(0);
    expect(await page.getByLabel('Password').count()).toBe(0);
    const login = await fetch(`${server.url}/api/login`, { method: 'POST', body: JSON.stringify({ username: 'admin', password: server.password }) });
    expect(login.status).toBe(403);
    expect(login.headers.get('x-filemgr-password-login')).toBe('off');
    await page.getByRole('button', { name: BUTTON }).click();
    await providerLogin(page, 'bob');
    await page.waitForURL(`${server.url}/files/`);
    await page.close();
  });

  interface Look { locale: 'en' | 'ar'; width: number; height: number; theme: 'light' | 'dark'; error: boolean }
  const looks: Look[] = [
    { locale: 'en', width: 1280, height: 800, theme: 'light', error: false }, { locale: 'en', width: 1280, height: 800, theme: 'dark', error: false },
    { locale: 'en', width: 390, height: 844, theme: 'light', error: false }, { locale: 'en', width: 390, height: 844, theme: 'dark', error: false },
    { locale: 'ar', width: 1280, height: 800, theme: 'light', error: false }, { locale: 'ar', width: 390, height: 844, theme: 'dark', error: false },
    { locale: 'en', width: 1280, height: 800, theme: 'light', error: true }, { locale: 'ar', width: 390, height: 844, theme: 'light', error: true },
  ];

  it.each(looks)('looks: $locale $width x $height $theme (error: $error)', async (look) => {
    const context = await chrome.newContext({ locale: look.locale, viewport: { width: look.width, height: look.height } });
    const page = await context.newPage();
    await page.addInitScript((dark) => { if (dark) localStorage.setItem('filemgr.theme', 'dark'); }, look.theme === 'dark');
    await page.goto(`${server.url}/login${look.error ? '?oidc_error=unavailable' : ''}`);
    await page.locator('.button-oidc').waitFor();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe(look.locale === 'ar' ? 'rtl' : 'ltr');
    await screenshot(page, `oidc-login-only-${look.locale}-${look.width}-${look.theme}${look.error ? '-error' : ''}`);
    await context.close();
  });

  it('looks: the password form with the OpenID button below it', async () => {
    const other = await startServer({ args: oidcArgs(provider) });
    try {
      for (const [locale, width, height] of [['en', 1280, 800], ['ar', 390, 844]] as const) {
        const context = await chrome.newContext({ locale, viewport: { width, height } });
        const page = await context.newPage();
        await page.goto(`${other.url}/login`);
        await page.locator('.button-oidc').waitFor();
        await screenshot(page, `oidc-login-both-${locale}-${width}`);
        await context.close();
      }
    } finally {
      await shutDown(undefined, other);
    }
  });
});
