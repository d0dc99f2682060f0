import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../errors';
import type { Permissions } from '../../state/schema';
import { createThrottle } from '../../lib/throttle';
import { createMemoryEphemeral } from '../../state/ephemeral';
import bcrypt from 'bcryptjs';
import { buildTestApp, defaultPasswordOf, TEST_ADMIN, type TestApp } from '../../../tests/support/test-app';
import { createBasicAuth } from './auth';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const basic = (name: string, password: string): string => `Basic ${Buffer.from(`${name}:${password}`).toString('base64')}`;
const NONE: Permissions = { admin: false, execute: false, create: false, rename: false, modify: false, delete: false, share: false, download: false };

interface Call {
  headers?: Record<string, string>;
  body?: string;
}

async function appWithUser(perm: Partial<Permissions>): Promise<{ app: TestApp; as: (method: string, url: string, call?: Call) => Promise<number> }> {
  const app = await buildTestApp({ tree: { 'f.txt': 'f', 'd/g.txt': 'g', 'secret/s.txt': 's', '.hidden': 'h' } });
  t = app;
  await app.addUser({ username: 'bob', perm: { ...NONE, ...perm }, rules: [{ regex: false, allow: false, path: '/secret', regexp: null }] });
  const as = async (method: string, url: string, call: Call = {}): Promise<number> => {
    const res = await app.app.inject({ method: method as 'GET', url, headers: { authorization: basic('bob', defaultPasswordOf('bob')), host: 'localhost', ...call.headers }, payload: call.body });
    return res.statusCode;
  };
  return { app, as };
}

describe('WebDAV sign-in', () => {
  it('challenges a request without or with wrong credentials', async () => {
    t = await buildTestApp();
    for (const authorization of [undefined, basic('admin', 'wrong'), 'Basic !!!', 'Bearer x']) {
      const res = await t.app.inject({ method: 'PROPFIND', url: '/dav/', headers: authorization ? { authorization } : {} });
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Basic realm="filemgr", charset="UTF-8"');
    }
  });

  it('counts wrong passwords in the sign-in throttle (429 after five)', async () => {
    t = await buildTestApp();
    const codes: number[] = [];
    for (let i = 0; i < 6; i++) codes.push((await t.app.inject({ method: 'PROPFIND', url: '/dav/', headers: { authorization: basic('admin', `bad${i}`) } })).statusCode);
    expect(codes.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(codes[5]).toBe(429);
  });

  it('forgets a verified password when it changes', async () => {
    t = await buildTestApp();
    const store = t.store;
    const auth = createBasicAuth({ store, throttle: createThrottle({ windows: createMemoryEphemeral({ sweepMs: 0 }) }) });
    await expect(auth.authenticateBasic(TEST_ADMIN.username, TEST_ADMIN.password)).resolves.toMatchObject({ id: 1 });
    const hash = bcrypt.hashSync('another-Pa55word', 4);
    await store.update((db) => {
      const u = db.users[0];
      if (u) u.password = hash;
    });
    await expect(auth.authenticateBasic(TEST_ADMIN.username, TEST_ADMIN.password)).rejects.toBeInstanceOf(AppError);
    await expect(auth.authenticateBasic(TEST_ADMIN.username, 'another-Pa55word')).resolves.toMatchObject({ id: 1 });
  });

  it('answers 404 everywhere under /dav/ with --disableWebDAV', async () => {
    t = await buildTestApp({ config: { disableWebDAV: true } });
    const res = await t.app.inject({ method: 'PROPFIND', url: '/dav/', headers: { authorization: basic(TEST_ADMIN.username, TEST_ADMIN.password) } });
    expect(res.statusCode).toBe(404);
    expect((await t.app.inject({ method: 'OPTIONS', url: '/dav/' })).statusCode).toBe(404);
  });

  it('serves under the base URL', async () => {
    t = await buildTestApp({ config: { baseURL: '/files' } });
    const res = await t.app.inject({ method: 'PROPFIND', url: '/files/dav/', headers: { depth: '0', authorization: basic(TEST_ADMIN.username, TEST_ADMIN.password) } });
    expect(res.statusCode).toBe(207);
    expect(res.body).toContain('<D:href>/files/dav/</D:href>');
  });
});

describe('WebDAV permissions (beyond.md §1)', () => {
  const dest = { destination: '/dav/copy.txt' };
  it.each([
    ['PROPFIND of a folder needs nobody', 'PROPFIND', '/dav/', {}, {}, 207],
    ['PROPFIND of a file needs download', 'PROPFIND', '/dav/f.txt', {}, {}, 403],
    ['PROPFIND of a file with download', 'PROPFIND', '/dav/f.txt', { download: true }, {}, 207],
    ['GET needs download', 'GET', '/dav/f.txt', {}, {}, 403],
    ['GET with download', 'GET', '/dav/f.txt', { download: true }, {}, 200],
    ['PUT of a new name needs create', 'PUT', '/dav/n.txt', { modify: true }, {}, 403],
    ['PUT of a new name with create', 'PUT', '/dav/n.txt', { create: true }, {}, 201],
    ['PUT over a file needs modify', 'PUT', '/dav/f.txt', { create: true }, {}, 403],
    ['PUT over a file with modify', 'PUT', '/dav/f.txt', { modify: true }, {}, 204],
    ['MKCOL needs create', 'MKCOL', '/dav/m', { modify: true }, {}, 403],
    ['COPY needs create', 'COPY', '/dav/f.txt', { rename: true }, dest, 403],
    ['COPY with create', 'COPY', '/dav/f.txt', { create: true }, dest, 201],
    ['MOVE needs rename', 'MOVE', '/dav/f.txt', { create: true }, dest, 403],
    ['MOVE with rename', 'MOVE', '/dav/f.txt', { rename: true }, dest, 201],
    ['DELETE needs delete', 'DELETE', '/dav/f.txt', { modify: true }, {}, 403],
    ['DELETE with delete', 'DELETE', '/dav/f.txt', { delete: true }, {}, 204],
    ['PROPPATCH needs modify', 'PROPPATCH', '/dav/f.txt', { create: true }, {}, 403],
    ['LOCK of an unmapped name needs create', 'LOCK', '/dav/l.txt', { modify: true }, {}, 403],
  ] as const)('%s', async (...row) => {
    const [, method, url, perm, headers, status] = row;
    const { as } = await appWithUser(perm);
    const body = method === 'PROPPATCH' ? '<D:propertyupdate xmlns:D="DAV:"><D:set><D:prop><Z:a xmlns:Z="urn:z">1</Z:a></D:prop></D:set></D:propertyupdate>' : method === 'LOCK' ? '<D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>' : method === 'PUT' ? 'x' : undefined;
    expect(await as(method, url, { headers, body })).toBe(status);
  });

  it('never lists a path the rules deny and refuses it to every method', async () => {
    const { app, as } = await appWithUser({ download: true, create: true, modify: true, delete: true, rename: true });
    const res = await app.app.inject({ method: 'PROPFIND', url: '/dav/', headers: { depth: '1', authorization: basic('bob', defaultPasswordOf('bob')) } });
    expect(res.body).not.toContain('secret');
    for (const method of ['PROPFIND', 'GET', 'PUT', 'DELETE', 'MKCOL', 'PROPPATCH', 'LOCK']) {
      expect([403, 404]).toContain(await as(method, '/dav/secret/s.txt', { body: method === 'PUT' ? 'x' : undefined }));
    }
    expect([403, 404]).toContain(await as('COPY', '/dav/f.txt', { headers: { destination: '/dav/secret/x.txt' } }));
    expect([403, 404]).toContain(await as('MOVE', '/dav/d', { headers: { destination: '/dav/secret/d' } }));
    await expect(stat(join(app.root, 'secret/x.txt'))).rejects.toThrow();
  });

  it.each(['/dav/../../etc/passwd', '/dav/%2e%2e/%2e%2e/etc/passwd', '/dav/a%00b'])('keeps %s inside the scope', async (url) => {
    const { as } = await appWithUser({ download: true });
    expect([400, 403, 404]).toContain(await as('GET', url));
  });

  it('lets a create-only user finish the upload of a name it locked (Finder, Windows)', async () => {
    const { app } = await appWithUser({ create: true, download: true });
    const headers = { authorization: basic('bob', defaultPasswordOf('bob')), host: 'localhost' };
    const lockinfo = '<D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>';
    const lock = await app.app.inject({ method: 'LOCK', url: '/dav/new.txt', headers, payload: lockinfo });
    expect(lock.statusCode).toBe(201);
    const token = String(lock.headers['lock-token']).slice(1, -1);
    const put = await app.app.inject({ method: 'PUT', url: '/dav/new.txt', headers: { ...headers, if: `(<${token}>)` }, payload: 'body' });
    expect(put.statusCode).toBe(204);
    const again = await app.app.inject({ method: 'PUT', url: '/dav/new.txt', headers: { ...headers, if: `(<${token}>)` }, payload: 'more' });
    expect(again.statusCode).toBe(403);
  });

  it('keeps locks between users: another user cannot use or remove mine', async () => {
    const { app, as } = await appWithUser({ download: true, modify: true, create: true });
    const lockinfo = '<D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>';
    const lock = await app.app.inject({ method: 'LOCK', url: '/dav/f.txt', headers: { authorization: basic(TEST_ADMIN.username, TEST_ADMIN.password) }, payload: lockinfo });
    const token = String(lock.headers['lock-token']).slice(1, -1);
    expect(await as('PUT', '/dav/f.txt', { body: 'x' })).toBe(423);
    expect(await as('PUT', '/dav/f.txt', { headers: { if: `(<${token}>)` }, body: 'x' })).toBe(423);
    expect(await as('UNLOCK', '/dav/f.txt', { headers: { 'lock-token': `<${token}>` } })).toBe(403);
  });
});
