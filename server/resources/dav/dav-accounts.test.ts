import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { TOTP } from 'otpauth';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, defaultPasswordOf, type TestApp } from '../../../tests/support/test-app';

// WebDAV with the other capabilities of beyond.md: API tokens as the Basic password (§4.1), users
// with two-factor sign-in limited to tokens (§1, §4.2), DELETE into the recycle bin (§3).

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const basic = (name: string, password: string): string => `Basic ${Buffer.from(`${name}:${password}`).toString('base64')}`;

async function withBob(): Promise<TestApp> {
  t = await buildTestApp({ tree: { 'a.txt': 'a', 'b.txt': 'b' } });
  await t.addUser({ username: 'bob', perm: { create: true, delete: true, download: true, modify: true, rename: true } });
  return t;
}

async function newToken(app: TestApp, perm?: Record<string, boolean>): Promise<{ id: string; token: string }> {
  const res = await app.app.inject({ method: 'POST', url: '/api/tokens', headers: { 'x-auth': app.token('bob') }, payload: { name: 'dav', expiresInDays: 0, ...(perm ? { perm } : {}) } });
  expect(res.statusCode).toBe(201);
  return res.json<{ id: string; token: string }>();
}

const dav = (app: TestApp, call: string, auth: { name: string; secret: string }) => {
  const [method = 'GET', url = '/'] = call.split(' ');
  return app.app.inject({ method: method as 'GET', url, headers: { authorization: basic(auth.name, auth.secret), host: 'localhost', depth: '1' } });
};

describe('WebDAV and API tokens', () => {
  it('takes a token as the password, with the token\'s rights, until it is revoked', async () => {
    const app = await withBob();
    const full = await newToken(app);
    expect((await dav(app, 'PROPFIND /dav/', { name: 'bob', secret: full.token })).statusCode).toBe(207);
    const readOnly = await newToken(app, { download: true });
    expect((await dav(app, 'GET /dav/a.txt', { name: 'bob', secret: readOnly.token })).statusCode).toBe(200);
    expect((await dav(app, 'DELETE /dav/a.txt', { name: 'bob', secret: readOnly.token })).statusCode).toBe(403);
    // Another user's name with bob's token, and a revoked token: 401.
    expect((await dav(app, 'PROPFIND /dav/', { name: 'admin', secret: full.token })).statusCode).toBe(401);
    const revoke = await app.app.inject({ method: 'DELETE', url: `/api/tokens/${full.id}`, headers: { 'x-auth': app.token('bob') } });
    expect(revoke.statusCode).toBeLessThan(300);
    expect((await dav(app, 'PROPFIND /dav/', { name: 'bob', secret: full.token })).statusCode).toBe(401);
  });

  it('refuses the password of a user with two-factor sign-in, and takes their tokens', async () => {
    const app = await withBob();
    const password = { name: 'bob', secret: defaultPasswordOf('bob') };
    expect((await dav(app, 'PROPFIND /dav/', password)).statusCode).toBe(207);
    const start = await app.app.inject({ method: 'POST', url: '/api/totp', headers: { 'x-auth': app.token('bob') } });
    const { secret } = start.json<{ secret: string }>();
    const code = new TOTP({ secret, digits: 6, period: 30, algorithm: 'SHA1' }).generate();
    const confirm = await app.app.inject({ method: 'POST', url: '/api/totp/confirm', headers: { 'x-auth': app.token('bob') }, payload: { code } });
    expect(confirm.statusCode).toBe(200);
    // The password verified a moment ago (and cached) no longer opens WebDAV.
    expect((await dav(app, 'PROPFIND /dav/', password)).statusCode).toBe(401);
    const { token } = await newToken(app);
    expect((await dav(app, 'PROPFIND /dav/', { name: 'bob', secret: token })).statusCode).toBe(207);
  });
});

describe('WebDAV DELETE and the recycle bin', () => {
  it('moves the item into the trash while it is on, and deletes it for good when it is off', async () => {
    const app = await withBob();
    const auth = { name: 'bob', secret: defaultPasswordOf('bob') };
    expect((await dav(app, 'DELETE /dav/a.txt', auth)).statusCode).toBe(204);
    expect(existsSync(join(app.root, 'a.txt'))).toBe(false);
    const trash = await app.app.inject({ method: 'GET', url: '/api/trash', headers: { 'x-auth': app.token('bob') } });
    expect(trash.json<{ name: string; path: string }[]>().map((i) => [i.name, i.path])).toEqual([['a.txt', '/a.txt']]);
    await app.store.update((db) => {
      db.settings.trash = { enabled: false, days: 30 };
    });
    expect((await dav(app, 'DELETE /dav/b.txt', auth)).statusCode).toBe(204);
    const after = await app.app.inject({ method: 'GET', url: '/api/trash', headers: { 'x-auth': app.token('bob') } });
    expect(after.json<unknown[]>()).toHaveLength(1);
  });
});
