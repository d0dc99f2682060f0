import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifyApiToken } from '../../accounts/api-tokens';
import { appsForEachTest } from '../../../tests/support/per-test';
import { defaultPasswordOf, TEST_ADMIN, type TestApp } from '../../../tests/support/test-app';

const start = appsForEachTest();

interface Created { id: string; name: string; token: string; created: string; expires: string | null; lastUsed: string | null; perm: Record<string, boolean> }

async function newToken(t: TestApp, body: object, session = t.token()): Promise<Created> {
  const res = await t.app.inject({ method: 'POST', url: '/api/tokens', headers: { 'x-auth': session }, payload: body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Created>();
}

const asBearer = (token: string) => ({ authorization: `Bearer ${token}` });
const list = (t: TestApp, headers: Record<string, string>) => t.app.inject({ method: 'GET', url: '/api/resources/', headers });
const mkdir = (t: TestApp, name: string, headers: Record<string, string>) => t.app.inject({ method: 'POST', url: `/api/resources/${name}/`, headers });

describe('API tokens (beyond.md §4.1)', () => {
  it('answers fm_ + 43 URL-safe characters once and stores only its SHA-256', async () => {
    const t = await start();
    const created = await newToken(t, { name: ' ci ', expiresInDays: 0 });
    expect(created.token).toMatch(/^fm_[A-Za-z0-9_-]{43}$/);
    expect(created).toMatchObject({ name: 'ci', expires: null, lastUsed: null, perm: { admin: true, download: true } });
    const stored = t.store.data().tokens ?? [];
    expect(stored).toHaveLength(1);
    expect(stored[0]?.hash).toBe(createHash('sha256').update(created.token).digest('hex'));
    expect(JSON.stringify(t.store.data())).not.toContain(created.token.slice(3));
    const listed = await t.app.inject({ method: 'GET', url: '/api/tokens', headers: { 'x-auth': t.token() } });
    expect(listed.json()).toEqual([{ id: created.id, name: 'ci', created: created.created, expires: null, lastUsed: null, perm: created.perm }]);
  });

  it.each([
    ['Bearer', asBearer],
    ['X-Auth', (token: string) => ({ 'x-auth': token })],
  ])('works as %s on API routes', async (_how, headers) => {
    const t = await start({ tree: { 'a.txt': 'x' } });
    const { token } = await newToken(t, { name: 'script', expiresInDays: 30 });
    const res = await list(t, headers(token));
    expect(res.statusCode).toBe(200);
    expect(res.json<{ items: { name: string }[] }>().items.map((i) => i.name)).toEqual(['a.txt']);
  });

  it('refuses a wrong, malformed or JWT-shaped Bearer value with 401', async () => {
    const t = await start();
    const { token } = await newToken(t, { name: 'x' });
    const flipped = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    for (const bad of [flipped, 'fm_short', `fm_${'a'.repeat(44)}`]) {
      expect((await list(t, asBearer(bad))).statusCode).toBe(401);
    }
    // A session token is taken from X-Auth only, as upstream.
    expect((await list(t, asBearer(t.token()))).statusCode).toBe(401);
  });

  it('carries its perm intersected with the owner current permissions', async () => {
    const t = await start();
    const bob = await t.addUser({ username: 'bob', perm: { create: true, download: true } });
    const { token } = await newToken(t, { name: 'ro', perm: { download: true } }, t.token('bob'));
    expect((await mkdir(t, 'by-token', asBearer(token))).statusCode).toBe(403);
    expect((await mkdir(t, 'by-session', { 'x-auth': t.token('bob') })).statusCode).toBe(200);
    const full = await newToken(t, { name: 'rw', perm: { create: true, download: true } }, t.token('bob'));
    expect((await mkdir(t, 'by-full-token', asBearer(full.token))).statusCode).toBe(200);
    // The owner loses `create`: the token loses it at once.
    await t.store.update((db) => {
      const u = db.users.find((x) => x.id === bob.id);
      if (u) u.perm.create = false;
    });
    expect((await mkdir(t, 'after-loss', asBearer(full.token))).statusCode).toBe(403);
  });

  it('refuses (400) a permission its owner does not have', async () => {
    const t = await start();
    await t.addUser({ username: 'bob', perm: { admin: false, download: true } });
    const res = await t.app.inject({ method: 'POST', url: '/api/tokens', headers: { 'x-auth': t.token('bob') }, payload: { name: 'x', perm: { admin: true } } });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('admin');
  });

  it.each([
    ['an empty name', { name: '  ' }],
    ['a negative expiry', { name: 'x', expiresInDays: -1 }],
    ['a fractional expiry', { name: 'x', expiresInDays: 1.5 }],
    ['no name', { expiresInDays: 1 }],
  ])('refuses %s with 400', async (_what, payload) => {
    const t = await start();
    const res = await t.app.inject({ method: 'POST', url: '/api/tokens', headers: { 'x-auth': t.token() }, payload });
    expect(res.statusCode).toBe(400);
    expect(t.store.data().tokens).toEqual([]);
  });

  it('dies with its owner', async () => {
    const t = await start();
    const bob = await t.addUser({ username: 'bob' });
    const { token } = await newToken(t, { name: 'x' }, t.token('bob'));
    const del = await t.app.inject({ method: 'DELETE', url: `/api/users/${bob.id}`, headers: { 'x-auth': t.token() }, payload: { current_password: TEST_ADMIN.password } });
    expect(del.statusCode).toBe(200);
    expect((await list(t, asBearer(token))).statusCode).toBe(401);
    expect(t.store.data().tokens).toEqual([]);
  });

  it('dies at its expiry', async () => {
    const t = await start();
    const { token, expires } = await newToken(t, { name: 'x', expiresInDays: 2 });
    expect(Date.parse(expires ?? '') - Date.now()).toBeGreaterThan(86_400_000);
    await t.store.update((db) => {
      for (const r of db.tokens ?? []) r.expires = Date.now() - 1;
    });
    expect((await list(t, asBearer(token))).statusCode).toBe(401);
  });

  it('dies when revoked, and a second revocation is 404', async () => {
    const t = await start();
    const { token, id } = await newToken(t, { name: 'x' });
    expect((await list(t, asBearer(token))).statusCode).toBe(200);
    const revoke = () => t.app.inject({ method: 'DELETE', url: `/api/tokens/${id}`, headers: { 'x-auth': t.token() } });
    expect((await revoke()).statusCode).toBe(200);
    expect((await list(t, asBearer(token))).statusCode).toBe(401);
    expect((await revoke()).statusCode).toBe(404);
  });

  it('survives a password change, which ends sessions', async () => {
    const t = await start();
    const bob = await t.addUser({ username: 'bob' });
    const session = t.token('bob');
    const { token } = await newToken(t, { name: 'x' }, session);
    await new Promise((r) => setTimeout(r, 1100));
    const data = { id: bob.id, password: 'a-new-Passw0rd-long' };
    const put = await t.app.inject({ method: 'PUT', url: `/api/users/${bob.id}`, headers: { 'x-auth': session }, payload: { what: 'user', which: ['password'], current_password: defaultPasswordOf('bob'), data } });
    expect(put.statusCode, put.body).toBe(200);
    expect((await list(t, { 'x-auth': session })).statusCode).toBe(401);
    expect((await list(t, asBearer(token))).statusCode).toBe(200);
  });

  it('cannot mint tokens, become a session or change two-factor sign-in (403)', async () => {
    const t = await start();
    const { token } = await newToken(t, { name: 'x' });
    const h = asBearer(token);
    expect((await t.app.inject({ method: 'POST', url: '/api/tokens', headers: h, payload: { name: 'y' } })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: '/api/renew', headers: h })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: '/api/totp', headers: h })).statusCode).toBe(403);
  });

  it('notes lastUsed, without a write per request', async () => {
    const t = await start();
    const { token, id } = await newToken(t, { name: 'x' });
    expect((await list(t, asBearer(token))).statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 20));
    const first = t.store.data().tokens?.find((x) => x.id === id)?.lastUsed ?? 0;
    expect(first).toBeGreaterThan(0);
    const state = t.store.data();
    for (let i = 0; i < 5; i++) expect((await list(t, asBearer(token))).statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 20));
    expect(t.store.data()).toBe(state);
  });

  it('counts wrong tokens in the throttle: five lock the address out of token sign-in', async () => {
    const t = await start();
    const { token } = await newToken(t, { name: 'x' });
    for (let i = 0; i < 5; i++) expect((await list(t, asBearer(`fm_${String(i).padStart(43, 'x')}`))).statusCode).toBe(401);
    const locked = await list(t, asBearer(token));
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('is checked by verifyApiToken for other callers (WebDAV)', async () => {
    const t = await start();
    const bob = await t.addUser({ username: 'bob', perm: { download: true, delete: true } });
    const { token } = await newToken(t, { name: 'dav', perm: { download: true } }, t.token('bob'));
    const found = verifyApiToken(t.store, token);
    expect(found?.user.id).toBe(bob.id);
    expect(found?.perm).toMatchObject({ download: true, delete: false, admin: false });
    expect(verifyApiToken(t.store, 'not-a-token')).toBeNull();
  });
});

describe('admin routes /api/users/{id}/tokens', () => {
  it('lets an admin list and revoke any user tokens', async () => {
    const t = await start();
    const bob = await t.addUser({ username: 'bob' });
    const { token, id } = await newToken(t, { name: 'bobs' }, t.token('bob'));
    const listed = await t.app.inject({ method: 'GET', url: `/api/users/${bob.id}/tokens`, headers: { 'x-auth': t.token() } });
    expect(listed.json<{ id: string; name: string }[]>().map((x) => x.name)).toEqual(['bobs']);
    const del = await t.app.inject({ method: 'DELETE', url: `/api/users/${bob.id}/tokens/${id}`, headers: { 'x-auth': t.token() } });
    expect(del.statusCode).toBe(200);
    expect((await list(t, asBearer(token))).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/users/99/tokens', headers: { 'x-auth': t.token() } })).statusCode).toBe(404);
  });

  it('refuses a non-admin, and an admin token without admin rights (403)', async () => {
    const t = await start();
    await t.addUser({ username: 'bob' });
    expect((await t.app.inject({ method: 'GET', url: '/api/users/1/tokens', headers: { 'x-auth': t.token('bob') } })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'DELETE', url: '/api/users/1/tokens/x', headers: { 'x-auth': t.token('bob') } })).statusCode).toBe(403);
    const { token } = await newToken(t, { name: 'no-admin', perm: { download: true } });
    expect((await t.app.inject({ method: 'GET', url: '/api/users/1/tokens', headers: asBearer(token) })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/users', headers: asBearer(token) })).statusCode).toBe(403);
  });

  it('does not let a user revoke another user token through /api/tokens (404)', async () => {
    const t = await start();
    await t.addUser({ username: 'bob' });
    const { id } = await newToken(t, { name: 'admins' });
    expect((await t.app.inject({ method: 'DELETE', url: `/api/tokens/${id}`, headers: { 'x-auth': t.token('bob') } })).statusCode).toBe(404);
    expect(t.store.data().tokens).toHaveLength(1);
  });
});
