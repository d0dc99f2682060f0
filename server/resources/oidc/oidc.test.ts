import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OidcConfig } from '../../config';
import { OIDC_ADMIN_GROUP, OIDC_CLIENT, OIDC_SCOPES, startOidcProvider, type TestProvider } from '../../../tests/support/oidc-provider';
import { signInAtProvider } from '../../../tests/support/oidc-login';
import { appsForEachTest } from '../../../tests/support/per-test';
import { TEST_ADMIN, type TestApp } from '../../../tests/support/test-app';
import { buildPageConfig } from '../../plugins/web-assets/page-config';
import { landingPath } from './service';

const HOST = 'filemgr.test';
const ORIGIN = `http://${HOST}`;
const start = appsForEachTest();
let provider: TestProvider;

beforeAll(async () => {
  provider = await startOidcProvider();
  provider.configure({ redirectUris: [`${ORIGIN}/api/auth/oidc/callback`, `${ORIGIN}/base/api/auth/oidc/callback`], postLogoutRedirectUris: [`${ORIGIN}/login`] });
});
afterAll(async () => provider.close());

function oidcConfig(overrides: Partial<OidcConfig> = {}): OidcConfig {
  return {
    issuer: provider.issuer, clientId: OIDC_CLIENT.id, clientSecret: OIDC_CLIENT.secret, scopes: OIDC_SCOPES,
    usernameClaim: 'preferred_username', groupsClaim: 'groups', adminGroup: OIDC_ADMIN_GROUP,
    createUsers: true, passwordLogin: true, name: 'Test ID', ...overrides,
  };
}

const startWith = (overrides: Partial<OidcConfig> = {}, baseURL = '') => start({ config: { oidc: oidcConfig(overrides), baseURL } });
const cookieOf = (setCookie: unknown): string => String(Array.isArray(setCookie) ? setCookie[0] : setCookie).split(';')[0] ?? '';

interface Flow {
  /** The flow cookie ("filemgr_oidc=..."). */
  cookie: string;
  /** Where filemgr sent the browser: the provider's authorization address. */
  authorization: string;
}

async function begin(t: TestApp, redirect = '/files/docs/', base = ''): Promise<Flow> {
  const res = await t.app.inject({ method: 'GET', url: `${base}/api/auth/oidc/login?redirect=${encodeURIComponent(redirect)}`, headers: { host: HOST } });
  expect(res.statusCode).toBe(303);
  return { cookie: cookieOf(res.headers['set-cookie']), authorization: String(res.headers.location) };
}

async function callback(t: TestApp, url: string, cookie: string) {
  const { pathname, search } = new URL(url);
  return t.app.inject({ method: 'GET', url: `${pathname}${search}`, headers: { host: HOST, cookie } });
}

/** A whole sign-in: login, the provider's form as `login`, the callback; answers the callback's reply. */
async function signIn(t: TestApp, login: string, redirect?: string) {
  const flow = await begin(t, redirect);
  return callback(t, await signInAtProvider(flow.authorization, login), flow.cookie);
}

async function redeem(t: TestApp, location: string) {
  const code = /#oidc=([\w-]+)$/.exec(location)?.[1] ?? '';
  return t.app.inject({ method: 'POST', url: '/api/auth/oidc/token', payload: { code } });
}

const errorOf = (location: unknown): string | null => new URL(String(location), ORIGIN).searchParams.get('oidc_error');

describe('GET /api/auth/oidc/login', () => {
  it('sends the browser to the provider with code, PKCE S256, state, nonce and the callback as redirect_uri', async () => {
    const t = await startWith();
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/oidc/login', headers: { host: HOST } });
    const url = new URL(String(res.headers.location));
    expect(`${url.origin}${url.pathname}`).toBe(`${provider.issuer}/auth`);
    const q = Object.fromEntries(url.searchParams);
    expect(q).toMatchObject({ response_type: 'code', client_id: OIDC_CLIENT.id, scope: OIDC_SCOPES, code_challenge_method: 'S256', redirect_uri: `${ORIGIN}/api/auth/oidc/callback` });
    expect(q.state).toMatch(/^[\w-]{20,}$/);
    expect(q.nonce).toMatch(/^[\w-]{20,}$/);
    expect(q.code_challenge).toMatch(/^[\w-]{43}$/);
    const setCookie = String(res.headers['set-cookie']);
    expect(setCookie).toMatch(/^filemgr_oidc=[\w-]+; Path=\/api\/auth\/oidc; Max-Age=600; HttpOnly; SameSite=Lax$/);
    // The flow cookie is sealed: neither the state nor the verifier can be read from it.
    expect(setCookie).not.toContain(q.state);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('honours X-Forwarded-Proto and X-Forwarded-Host from a trusted proxy only', async () => {
    const t = await start({ config: { oidc: oidcConfig(), trustedProxies: ['127.0.0.1'] } });
    const headers = { host: 'internal:8080', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'files.example.com' };
    const proxied = await t.app.inject({ method: 'GET', url: '/api/auth/oidc/login', headers, remoteAddress: '127.0.0.1' });
    expect(new URL(String(proxied.headers.location)).searchParams.get('redirect_uri')).toBe('https://files.example.com/api/auth/oidc/callback');
    expect(String(proxied.headers['set-cookie'])).toMatch(/; Secure$/);
    const direct = await t.app.inject({ method: 'GET', url: '/api/auth/oidc/login', headers, remoteAddress: '203.0.113.9' });
    expect(new URL(String(direct.headers.location)).searchParams.get('redirect_uri')).toBe('http://internal:8080/api/auth/oidc/callback');
  });

  it('answers 400 for a malformed Host, and 404 when OpenID sign-in is not configured', async () => {
    const t = await startWith();
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/oidc/login', headers: { host: 'evil.com/x?' } })).statusCode).toBe(400);
    const plain = await start();
    expect((await plain.app.inject({ method: 'GET', url: '/api/auth/oidc/login', headers: { host: HOST } })).statusCode).toBe(404);
  });

  it('with the provider down, still answers: back to the login page with "unavailable", and recovers when it is back', async () => {
    provider.pause();
    try {
      const t = await startWith();
      const res = await t.app.inject({ method: 'GET', url: '/api/auth/oidc/login?redirect=/files/a/', headers: { host: HOST } });
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe('/login?oidc_error=unavailable&redirect=%2Ffiles%2Fa%2F');
      provider.resume();
      const again = await t.app.inject({ method: 'GET', url: '/api/auth/oidc/login', headers: { host: HOST } });
      expect(String(again.headers.location)).toMatch(new RegExp(`^${provider.issuer}/auth\\?`));
    } finally {
      provider.resume();
    }
  });
});

describe('GET /api/auth/oidc/callback', () => {
  it('signs a new user in at the redirect target: created with the defaults, admin by group, a working token', async () => {
    const t = await startWith();
    const res = await signIn(t, 'alice');
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toMatch(/^\/files\/docs\/#oidc=[\w-]{43}$/);
    expect(String(res.headers['set-cookie'])).toMatch(/^filemgr_oidc=; .*Max-Age=0/);
    const alice = t.store.data().users.find((u) => u.username === 'alice');
    expect(alice).toMatchObject({ lockPassword: true, perm: { admin: true, execute: false } });
    const token = await redeem(t, String(res.headers.location));
    expect(token.statusCode).toBe(200);
    const me = await t.app.inject({ method: 'POST', url: '/api/renew', headers: { 'x-auth': token.body } });
    expect(me.statusCode).toBe(200);
  });

  it('records each sign-in through the provider in the activity log, by method, and a refused one as failed', async () => {
    const t = await startWith();
    expect((await signIn(t, 'alice')).statusCode).toBe(303);
    const mine = await begin(t);
    const url = await signInAtProvider((await begin(t)).authorization, 'bob');
    expect(errorOf((await callback(t, url, mine.cookie)).headers.location)).toBe('state');
    const res = await t.app.inject({ method: 'GET', url: '/api/activity?action=login', headers: { 'x-auth': t.token() } });
    const entries = res.json<{ items: { user: string; detail: string; result: string }[] }>().items.map((e) => [e.user, e.detail, e.result]);
    expect(entries).toEqual([['', 'oidc: state', 'failed'], ['alice', 'oidc', 'ok']]);
  });

  it('hands the token over once: a second redeem of the same code is refused', async () => {
    const t = await startWith();
    const res = await signIn(t, 'bob');
    expect((await redeem(t, String(res.headers.location))).statusCode).toBe(200);
    expect((await redeem(t, String(res.headers.location))).statusCode).toBe(403);
  });

  it('matches an existing user by the username claim and sets or removes admin from the groups at every sign-in', async () => {
    const t = await startWith();
    await t.addUser({ username: 'bob', perm: { admin: true } });
    await t.addUser({ username: 'alice', perm: { admin: false } });
    const before = t.store.data().users.length;
    await signIn(t, 'bob');
    await signIn(t, 'alice');
    expect(t.store.data().users.length).toBe(before);
    expect(t.store.data().users.find((u) => u.username === 'bob')?.perm.admin).toBe(false);
    expect(t.store.data().users.find((u) => u.username === 'alice')?.perm.admin).toBe(true);
  });

  it('leaves admin alone without --oidc.adminGroup, and takes a groups claim sent as one string', async () => {
    const t = await startWith({ adminGroup: '' });
    await t.addUser({ username: 'bob', perm: { admin: true } });
    await signIn(t, 'bob');
    expect(t.store.data().users.find((u) => u.username === 'bob')?.perm.admin).toBe(true);
    const staff = await startWith({ adminGroup: 'staff' });
    await signIn(staff, 'carol');
    expect(staff.store.data().users.find((u) => u.username === 'carol')?.perm.admin).toBe(true);
  });

  it('refuses an unknown user with --oidc.createUsers=false, and an account without a username claim', async () => {
    const t = await startWith({ createUsers: false });
    const res = await signIn(t, 'bob');
    expect(errorOf(res.headers.location)).toBe('unknownUser');
    expect(t.store.data().users.some((u) => u.username === 'bob')).toBe(false);
    expect(errorOf((await signIn(t, 'nameless')).headers.location)).toBe('account');
  });

  it('reads the claims from the ID token itself when the provider puts them there', async () => {
    const own = await startOidcProvider();
    try {
      own.configure({ redirectUris: [`${ORIGIN}/api/auth/oidc/callback`], postLogoutRedirectUris: [], claimsInIdToken: true });
      const t = await start({ config: { oidc: { ...oidcConfig(), issuer: own.issuer } } });
      expect((await signIn(t, 'alice')).headers.location).toMatch(/#oidc=/);
      expect(t.store.data().users.find((u) => u.username === 'alice')?.perm.admin).toBe(true);
    } finally {
      await own.close();
    }
  });
});

describe('refused callbacks land on the login page with the reason', () => {
  it('a wrong state (another flow\'s), and a callback without the flow cookie', async () => {
    const t = await startWith();
    const mine = await begin(t);
    const theirs = await begin(t);
    const url = await signInAtProvider(theirs.authorization, 'bob');
    const res = await callback(t, url, mine.cookie);
    expect(res.statusCode).toBe(303);
    expect(errorOf(res.headers.location)).toBe('state');
    expect(errorOf((await callback(t, url, '')).headers.location)).toBe('state');
    expect(t.store.data().users.some((u) => u.username === 'bob')).toBe(false);
  });

  it('a replayed callback (same code, same cookie)', async () => {
    const t = await startWith();
    const flow = await begin(t);
    const url = await signInAtProvider(flow.authorization, 'bob');
    expect((await callback(t, url, flow.cookie)).headers.location).toMatch(/#oidc=/);
    const replay = await callback(t, url, flow.cookie);
    expect(errorOf(replay.headers.location)).toBe('code');
    expect(replay.headers.location).not.toMatch(/#oidc=/);
  });

  it.each([['audience', 'an ID token for another audience'], ['expired', 'an expired ID token']] as const)('%s: %s', async (mode, _what) => {
    const t = await startWith();
    provider.tamper.mode = mode;
    try {
      const res = await signIn(t, 'alice');
      expect(errorOf(res.headers.location)).toBe('token');
      expect(t.store.data().users.some((u) => u.username === 'alice')).toBe(false);
    } finally {
      provider.tamper.mode = 'none';
    }
  });

  it('(control) the same ID token re-signed unchanged is accepted: the refusals above are about aud and exp', async () => {
    const t = await startWith();
    provider.tamper.mode = 'resign';
    try {
      expect((await signIn(t, 'alice')).headers.location).toMatch(/#oidc=/);
    } finally {
      provider.tamper.mode = 'none';
    }
  });

  it('an error answer of the provider (the user cancelled)', async () => {
    const t = await startWith();
    const flow = await begin(t);
    const state = new URL(flow.authorization).searchParams.get('state') ?? '';
    const res = await callback(t, `${ORIGIN}/api/auth/oidc/callback?error=access_denied&state=${state}`, flow.cookie);
    expect(errorOf(res.headers.location)).toBe('denied');
  });
});

describe('redirect targets', () => {
  it.each([
    ['/files/docs/?x=1', '/files/docs/?x=1'], ['https://evil.example/', '/'], ['//evil.example/', '/'], ['/\\evil.example', '/'],
    ['/\t/evil.example', '/'], ['javascript:alert(1)', '/'], ['/api/logout', '/'], ['', '/'], ['files', '/'],
  ])('%j lands on %j', (given, landing) => {
    expect(landingPath(given)).toBe(landing);
  });

  it('an open redirect attempt lands on the app root after signing in; a base URL prefixes the landing', async () => {
    const t = await startWith();
    expect((await signIn(t, 'bob', 'https://evil.example/')).headers.location).toMatch(/^\/#oidc=/);
    const based = await startWith({}, '/base');
    const flow = await begin(based, '/files/', '/base');
    expect(new URL(flow.authorization).searchParams.get('redirect_uri')).toBe(`${ORIGIN}/base/api/auth/oidc/callback`);
    const res = await callback(based, await signInAtProvider(flow.authorization, 'bob'), flow.cookie);
    expect(res.headers.location).toMatch(/^\/base\/files\/#oidc=/);
  });
});

describe('the page configuration', () => {
  it('names the provider and says whether passwords are taken; the client secret is never in it', async () => {
    const t = await start({ config: { oidc: oidcConfig({ passwordLogin: false }) }, settings: (s) => { s.signup = true; } });
    const page = buildPageConfig({ settings: t.store.data().settings, auther: t.store.data().auther, config: t.config, hasCustomCss: false });
    expect(page).toMatchObject({ OidcName: 'Test ID', PasswordLogin: false, Signup: false });
    expect(JSON.stringify(page)).not.toContain(OIDC_CLIENT.secret);
    const plain = await start();
    expect(buildPageConfig({ settings: plain.store.data().settings, auther: plain.store.data().auther, config: plain.config, hasCustomCss: false })).toMatchObject({ OidcName: '', PasswordLogin: true });
  });
});

describe('password login and logout', () => {
  it('with --oidc.passwordLogin=false refuses passwords (403 + X-Filemgr-Password-Login: off) and sign-ups', async () => {
    const t = await start({ config: { oidc: oidcConfig({ passwordLogin: false }) }, settings: (s) => { s.signup = true; } });
    const res = await t.app.inject({ method: 'POST', url: '/api/login', payload: TEST_ADMIN });
    expect(res.statusCode).toBe(403);
    expect(res.headers['x-filemgr-password-login']).toBe('off');
    expect((await t.app.inject({ method: 'POST', url: '/api/signup', payload: { username: 'x', password: 'a-long-Pa55word!' } })).statusCode).toBe(403);
    const page = await startWith();
    expect((await page.app.inject({ method: 'POST', url: '/api/login', payload: TEST_ADMIN })).statusCode).toBe(200);
  });

  it('logout ends the sessions and names the provider\'s end-session address with the login page to come back to', async () => {
    const t = await startWith();
    const token = (await redeem(t, String((await signIn(t, 'bob')).headers.location))).body;
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/oidc/logout', headers: { host: HOST, 'x-auth': token } });
    expect(res.statusCode).toBe(200);
    const url = new URL((res.json<{ url: string }>()).url);
    expect(`${url.origin}${url.pathname}`).toBe(`${provider.issuer}/session/end`);
    expect(url.searchParams.get('post_logout_redirect_uri')).toBe(`${ORIGIN}/login`);
    expect(url.searchParams.get('client_id')).toBe(OIDC_CLIENT.id);
    expect((await t.app.inject({ method: 'POST', url: '/api/renew', headers: { 'x-auth': token } })).statusCode).toBe(401);
  });
});
