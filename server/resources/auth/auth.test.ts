import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Settings } from '../../state/schema';
import { appsForEachTest } from '../../../tests/support/per-test';
import { defaultPasswordOf, TEST_ADMIN, type TestApp } from '../../../tests/support/test-app';

const start = appsForEachTest();

const login = (t: TestApp, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/api/login', payload: typeof payload === 'string' ? payload : JSON.stringify(payload), headers });
const renew = (t: TestApp, token: string) => t.app.inject({ method: 'POST', url: '/api/renew', headers: { 'x-auth': token } });
const stateOf = (t: TestApp) => JSON.stringify(t.store.data());

function forge(t: TestApp, header: object, payload: Record<string, unknown> & { signWith?: string }): string {
  const { signWith: key = t.store.data().settings.key, ...claims } = payload;
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const body = `${part(header)}.${part(claims)}`;
  return `${body}.${createHmac('sha256', Buffer.from(key, 'base64')).update(body).digest('base64url')}`;
}

describe('POST /api/login (json)', () => {
  it('answers a token as text/plain whose user claim comes from the record', async () => {
    const t = await start();
    const res = await login(t, { username: TEST_ADMIN.username, password: TEST_ADMIN.password });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    const claims = JSON.parse(Buffer.from(res.body.split('.')[1]!, 'base64url').toString()) as { user: { id: number; username: string; perm: { admin: boolean } }; iss: string };
    expect(claims).toMatchObject({ iss: 'filemgr', user: { id: 1, username: 'admin', perm: { admin: true } } });
    expect((await renew(t, res.body)).statusCode).toBe(200);
  });

  it.each(['PUT', 'DELETE', 'PATCH'] as const)('accepts any method with a body (%s)', async (method) => {
    const t = await start();
    const res = await t.app.inject({ method, url: '/api/login', payload: JSON.stringify(TEST_ADMIN) });
    expect(res.statusCode).toBe(200);
  });

  it.each([
    ['a wrong password', { username: 'admin', password: 'nope' }],
    ['an unknown user', { username: 'ghost', password: 'whatever' }],
    ['invalid JSON', '{"username":'],
    ['an empty body', ''],
    ['a JSON array', '[]'],
  ])('answers 403 for %s', async (_name, payload) => {
    const t = await start();
    const res = await login(t, payload);
    expect(res.statusCode).toBe(403);
    expect(res.body).toBe('403 Forbidden\n');
  });

  it('answers 413 for a body over 1 MiB and changes nothing', async () => {
    const t = await start();
    const before = stateOf(t);
    const res = await login(t, JSON.stringify({ username: 'admin', password: 'x'.repeat(1024 * 1024) }));
    expect(res.statusCode).toBe(413);
    expect(stateOf(t)).toBe(before);
  });
});

describe('tokens on signed-in routes', () => {
  it.each([
    ['no token', () => ({})],
    ['a token signed with another key', (t: TestApp) => ({ 'x-auth': forge(t, { alg: 'HS256', typ: 'JWT' }, { user: { id: 1 }, exp: Date.now() / 1000 + 600, signWith: Buffer.alloc(64, 7).toString('base64') }) })],
    ['alg none', (t: TestApp) => ({ 'x-auth': `${forge(t, { alg: 'none', typ: 'JWT' }, { user: { id: 1 }, exp: Date.now() / 1000 + 600 }).split('.').slice(0, 2).join('.')}.` })],
    ['no exp', (t: TestApp) => ({ 'x-auth': forge(t, { alg: 'HS256', typ: 'JWT' }, { user: { id: 1 }, iat: Date.now() / 1000 }) })],
    ['an expired token', (t: TestApp) => ({ 'x-auth': forge(t, { alg: 'HS256', typ: 'JWT' }, { user: { id: 1 }, iat: Date.now() / 1000 - 7200, exp: Date.now() / 1000 - 60 }) })],
    ['a Bearer prefix', (t: TestApp) => ({ 'x-auth': `Bearer ${t.token()}` })],
    ['the token in the query string', () => ({})],
  ])('answers 401 with %s', async (name, headers) => {
    const t = await start();
    const url = name.includes('query') ? `/api/renew?auth=${t.token()}` : '/api/renew';
    const res = await t.app.inject({ method: 'POST', url, headers: headers(t) });
    expect(res.statusCode).toBe(401);
    expect(res.body).toBe('401 Unauthorized\n');
  });

  it('answers 401 for the token of a deleted user', async () => {
    const t = await start();
    await t.addUser({ username: 'gone', perm: {} });
    const token = t.token('gone');
    await t.store.update((db) => {
      db.users = db.users.filter((u) => u.username !== 'gone');
    });
    expect((await renew(t, token)).statusCode).toBe(401);
  });

  it('accepts the auth cookie on GET only', async () => {
    const t = await start();
    const cookie = `theme=dark; auth=${t.token()}`;
    expect((await t.app.inject({ method: 'GET', url: '/api/users/1', headers: { cookie } })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/api/renew', headers: { cookie } })).statusCode).toBe(401);
  });

  it('renews with X-Renew-Token: false and a fresh token from the stored record', async () => {
    const t = await start();
    const old = t.token();
    await t.store.update((db) => {
      db.users[0]!.locale = 'fr';
    });
    const res = await renew(t, old);
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-renew-token']).toBe('false');
    const claims = JSON.parse(Buffer.from(res.body.split('.')[1]!, 'base64url').toString()) as { user: { locale: string } };
    expect(claims.user.locale).toBe('fr');
  });

  it('hints X-Renew-Token: true when less than an hour is left', async () => {
    const t = await start();
    const admin = t.store.data().users[0]!;
    const short = t.tokens.sign(admin, t.store.data().settings.key, { lifetimeMs: 30 * 60_000, nowMs: Date.now() });
    const res = await t.app.inject({ method: 'GET', url: '/api/users/1', headers: { 'x-auth': short } });
    expect(res.headers['x-renew-token']).toBe('true');
    const fresh = await t.app.inject({ method: 'GET', url: '/api/users/1', headers: { 'x-auth': t.token() } });
    expect(fresh.headers['x-renew-token']).toBeUndefined();
  });

  it('hints X-Renew-Token: true to tokens issued in a second before an update of the user', async () => {
    const t = await start();
    // iat and the update time compare in whole seconds (api.md 2.3): issued a second ago.
    const token = t.tokens.sign(t.store.data().users[0]!, t.store.data().settings.key, { lifetimeMs: 7_200_000, nowMs: Date.now() - 1000 });
    const put = await t.app.inject({ method: 'PUT', url: '/api/users/1', headers: { 'x-auth': token }, payload: { what: 'user', which: ['locale'], data: { id: 1, locale: 'de' } } });
    expect(put.statusCode).toBe(200);
    const res = await t.app.inject({ method: 'GET', url: '/api/users/1', headers: { 'x-auth': token } });
    expect(res.headers['x-renew-token']).toBe('true');
    const after = await t.app.inject({ method: 'GET', url: '/api/users/1', headers: { 'x-auth': t.token() } });
    expect(after.headers['x-renew-token']).toBeUndefined();
  });
});

describe('revocation', () => {
  it('POST /api/logout ends every token of the caller, not newer ones nor other users', async () => {
    const t = await start();
    await t.addUser({ username: 'bob', perm: {} });
    const [a, b, bob] = [t.token(), t.token(), t.token('bob')];
    const res = await t.app.inject({ method: 'POST', url: '/api/logout', headers: { 'x-auth': a } });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('200 OK\n');
    expect((await renew(t, a)).statusCode).toBe(401);
    expect((await renew(t, b)).statusCode).toBe(401);
    expect((await renew(t, bob)).statusCode).toBe(200);
    const fresh = await login(t, TEST_ADMIN);
    expect((await renew(t, fresh.body)).statusCode).toBe(200);
  });

  it('an admin ends another user\'s tokens with POST /api/users/{id}/logout', async () => {
    const t = await start();
    const bob = await t.addUser({ username: 'bob', perm: {} });
    const token = t.token('bob');
    const denied = await t.app.inject({ method: 'POST', url: `/api/users/1/logout`, headers: { 'x-auth': token } });
    expect(denied.statusCode).toBe(403);
    const res = await t.app.inject({ method: 'POST', url: `/api/users/${bob.id}/logout`, headers: { 'x-auth': t.token() } });
    expect(res.statusCode).toBe(200);
    expect((await renew(t, token)).statusCode).toBe(401);
    const missing = await t.app.inject({ method: 'POST', url: '/api/users/99/logout', headers: { 'x-auth': t.token() } });
    expect(missing.statusCode).toBe(404);
  });

  it('a password change ends older tokens', async () => {
    const t = await start();
    const bob = await t.addUser({ username: 'bob', perm: {} });
    const token = t.token('bob');
    const res = await t.app.inject({
      method: 'PUT', url: `/api/users/${bob.id}`, headers: { 'x-auth': token },
      payload: { what: 'user', which: ['password'], current_password: defaultPasswordOf('bob'), data: { id: bob.id, password: 'A-brand-new-Passw0rd' } },
    });
    expect(res.statusCode).toBe(200);
    expect((await renew(t, token)).statusCode).toBe(401);
    expect((await login(t, { username: 'bob', password: 'A-brand-new-Passw0rd' })).statusCode).toBe(200);
  });
});

describe('throttling', () => {
  it('answers 429 with Retry-After after 5 failures, even for the right password', async () => {
    const t = await start();
    for (let i = 0; i < 5; i++) expect((await login(t, { username: 'admin', password: `wrong${i}` })).statusCode).toBe(403);
    const res = await login(t, TEST_ADMIN);
    expect(res.statusCode).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(800);
    expect(res.body).toBe('429 Too Many Requests\n');
  });

  it('keys on the nearest untrusted X-Forwarded-For hop behind a trusted proxy', async () => {
    const t = await start({ config: { trustedProxies: ['127.0.0.1'] } });
    const from = (ip: string) => ({ 'x-forwarded-for': ip });
    for (let i = 0; i < 5; i++) await login(t, { username: 'admin', password: 'bad' }, from('198.51.100.1'));
    expect((await login(t, TEST_ADMIN, from('198.51.100.1'))).statusCode).toBe(429);
    expect((await login(t, TEST_ADMIN, from('198.51.100.2'))).statusCode).toBe(200);
  });

  it('ignores X-Forwarded-For from an untrusted peer', async () => {
    const t = await start();
    for (let i = 0; i < 5; i++) await login(t, { username: 'admin', password: 'bad' }, { 'x-forwarded-for': `203.0.113.${i}` });
    expect((await login(t, TEST_ADMIN, { 'x-forwarded-for': '203.0.113.99' })).statusCode).toBe(429);
  });
});

describe('POST /api/signup', () => {
  const signup = (t: TestApp, payload: unknown) =>
    t.app.inject({ method: 'POST', url: '/api/signup', payload: typeof payload === 'string' ? payload : JSON.stringify(payload) });
  const open = (extra: (s: Settings) => void = () => undefined) => start({
    settings: (s) => {
      s.signup = true;
      s.defaults.perm = { admin: true, execute: true, create: true, rename: true, modify: true, delete: true, share: true, download: true };
      s.defaults.commands = ['git', 'ls'];
      extra(s);
    },
  });

  it('answers 405 when signup is off', async () => {
    const t = await start();
    expect((await signup(t, { username: 'eve', password: 'Eve-password-1234' })).statusCode).toBe(405);
  });

  it('creates a user that never gets admin, execute or commands from the defaults, then logs in', async () => {
    const t = await open();
    const res = await signup(t, { username: 'eve', password: 'Eve-password-1234' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('200 OK\n');
    const eve = t.store.data().users.find((u) => u.username === 'eve')!;
    expect(eve.perm).toMatchObject({ admin: false, execute: false, create: true, download: true });
    expect(eve.commands).toEqual([]);
    expect(eve.lockPassword).toBe(false);
    expect(eve.password).toMatch(/^\$2a\$10\$/);
    expect((await login(t, { username: 'eve', password: 'Eve-password-1234' })).statusCode).toBe(200);
  });

  it.each([
    ['invalid JSON', '{"username"', /^400 Bad Request \(failed to decode body: .+\)\n$/],
    ['an empty username', { username: ' ', password: 'Eve-password-1234' }, /^400 Bad Request \(username is empty\)\n$/],
    ['an empty password', { username: 'eve', password: '' }, /^400 Bad Request \(password is empty\)\n$/],
    ['a short password', { username: 'eve', password: 'short' }, /^400 Bad Request \(password is too short, minimum length is 12\)\n$/],
    ['a common password', { username: 'eve', password: '1qaz2wsx3edc' }, /^400 Bad Request \(password is too easy\)\n$/],
    ['a duplicate username', { username: 'admin', password: 'Eve-password-1234' }, /^409 Conflict\n$/],
  ])('refuses %s and changes nothing', async (_name, payload, body) => {
    const t = await open();
    const before = stateOf(t);
    const res = await signup(t, payload);
    expect(res.body).toMatch(body);
    expect(stateOf(t)).toBe(before);
  });

  it('refuses a second name that normalises to the same home (409), keeping the first owner', async () => {
    const t = await open((s) => {
      s.createUserDir = true;
      s.userHomeBasePath = '/users';
      s.minimumPasswordLength = 1;
    });
    expect((await signup(t, { username: 'teamone-x', password: 'CollidePw12345!' })).statusCode).toBe(200);
    expect((await signup(t, { username: 'teamone/x', password: 'CollidePw12345!' })).statusCode).toBe(409);
    const owners = t.store.data().users.filter((u) => u.scope.toLowerCase() === '/users/teamone-x');
    expect(owners.map((u) => u.username)).toEqual(['teamone-x']);
  });

  it('compares homes case-insensitively (CaseVictim then casevictim)', async () => {
    const t = await open((s) => {
      s.createUserDir = true;
    });
    expect((await signup(t, { username: 'CaseVictim', password: 'CollidePw12345!' })).statusCode).toBe(200);
    expect((await signup(t, { username: 'casevictim', password: 'CollidePw12345!' })).statusCode).toBe(409);
  });

  it('lets exactly one of two concurrent colliding signups win', async () => {
    const t = await open((s) => {
      s.createUserDir = true;
    });
    const results = await Promise.all([
      signup(t, { username: 'teamone-x', password: 'CollidePw12345!' }),
      signup(t, { username: 'teamone/x', password: 'CollidePw12345!' }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(t.store.data().users).toHaveLength(2);
  });

  it('throttles repeated refused signups', async () => {
    const t = await open();
    for (let i = 0; i < 5; i++) expect((await signup(t, { username: 'admin', password: 'Eve-password-1234' })).statusCode).toBe(409);
    expect((await signup(t, { username: 'admin', password: 'Eve-password-1234' })).statusCode).toBe(429);
  });
});

describe('recaptcha', () => {
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise((r) => server?.close(r));
    server = undefined;
  });

  async function verifier(status: number, body: string): Promise<{ host: string; seen: string[] }> {
    const seen: string[] = [];
    server = createServer((req, res) => {
      let data = '';
      req.on('data', (c: Buffer) => (data += c.toString()));
      req.on('end', () => {
        seen.push(`${req.url} ${data}`);
        res.writeHead(status, { 'content-type': 'application/json' }).end(body);
      });
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    return { host: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
  }

  it.each([
    [200, '{"success":true}', 200],
    [200, '{"success":false}', 403],
    [500, '{"success":true}', 403],
    [200, 'not json', 500],
  ])('verifier answering %i %s gives %i', async (status, body, expected) => {
    const v = await verifier(status, body);
    const t = await start();
    await t.store.update((db) => {
      db.auther = { recaptcha: { host: v.host, key: 'site-key', secret: 's3cret' } };
    });
    const res = await login(t, { ...TEST_ADMIN, recaptcha: 'resp-token' });
    expect(res.statusCode).toBe(expected);
    expect(v.seen).toEqual(['/recaptcha/api/siteverify secret=s3cret&response=resp-token']);
  });
});

describe('noauth', () => {
  it('signs in user 1 without credentials', async () => {
    const t = await start({ settings: (s) => { s.authMethod = 'noauth'; } });
    const res = await t.app.inject({ method: 'POST', url: '/api/login' });
    expect(res.statusCode).toBe(200);
    expect((await renew(t, res.body)).statusCode).toBe(200);
  });
});
