import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { verifyPassword } from '../../accounts/password';
import { appsForEachTest } from '../../../tests/support/per-test';
import { defaultPasswordOf, TEST_ADMIN, type TestApp } from '../../../tests/support/test-app';

const start = appsForEachTest();

const stateOf = (t: TestApp) => JSON.stringify(t.store.data());
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (t: TestApp, req: { method: Method; url: string; as?: string; payload?: unknown }) =>
  t.app.inject({
    method: req.method,
    url: req.url,
    headers: { 'x-auth': t.token(req.as), 'content-type': 'text/plain;charset=UTF-8' },
    ...(req.payload === undefined ? {} : { payload: typeof req.payload === 'string' ? req.payload : JSON.stringify(req.payload) }),
  });

const NEW_PASSWORD = 'A-new-Passw0rd-here';
const newUser = (data: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
  what: 'user', which: [], current_password: TEST_ADMIN.password,
  data: { username: 'bob', password: NEW_PASSWORD, scope: '/bob', perm: { create: true, download: true }, ...data },
  ...extra,
});

async function withBob(t: TestApp, fields: Record<string, unknown> = {}) {
  return t.addUser({ username: 'bob', scope: '/bob', perm: { admin: false, execute: false }, ...fields });
}

describe('GET /api/users', () => {
  it('lists every user by id without password hashes', async () => {
    const t = await start();
    await withBob(t);
    const res = await call(t, { method: 'GET', url: '/api/users' });
    expect(res.statusCode).toBe(200);
    const list = res.json<{ id: number; username: string; password: string }[]>();
    expect(list.map((u) => [u.id, u.username, u.password])).toEqual([[1, 'admin', ''], [2, 'bob', '']]);
    expect(res.body).not.toContain('$2');
    expect(res.body).not.toContain('sessionEpoch');
  });

  it('is for admins only', async () => {
    const t = await start();
    await withBob(t);
    expect((await call(t, { method: 'GET', url: '/api/users', as: 'bob' })).statusCode).toBe(403);
  });
});

describe('GET /api/users/{id}', () => {
  it('shows a user to itself without its scope, and to an admin with it', async () => {
    const t = await start();
    const bob = await withBob(t);
    const self = await call(t, { method: 'GET', url: `/api/users/${bob.id}`, as: 'bob' });
    expect(self.json()).toMatchObject({ id: bob.id, username: 'bob', password: '', scope: '' });
    expect((await call(t, { method: 'GET', url: `/api/users/${bob.id}` })).json()).toMatchObject({ scope: '/bob' });
  });

  it.each([
    ['another user as a non-admin', '/api/users/1', 'bob', 403],
    ['a missing user', '/api/users/99', 'admin', 404],
  ])('answers %s with %i', async (...row) => {
    const [, url, as, status] = row;
    const t = await start();
    await withBob(t);
    expect((await call(t, { method: 'GET', url, as })).statusCode).toBe(status);
  });
});

describe('POST /api/users', () => {
  it('creates a user: 201, Location, bcrypt hash, scope created under the root', async () => {
    const t = await start();
    const res = await call(t, { method: 'POST', url: '/api/users', payload: newUser({ id: 1, scope: 'teams/../bob' }) });
    expect(res.statusCode).toBe(201);
    expect(res.body).toBe('201 Created\n');
    expect(res.headers.location).toBe('/settings/users/2');
    const bob = t.store.data().users.find((u) => u.username === 'bob')!;
    expect(bob.id).toBe(2);
    expect(t.store.data().users.find((u) => u.id === 1)!.username).toBe('admin');
    expect(bob.scope).toBe('/bob');
    expect(await verifyPassword(NEW_PASSWORD, bob.password)).toBe(true);
    expect((await stat(join(t.root, 'bob'))).isDirectory()).toBe(true);
  });

  it('derives the home with createUserDir when no scope is given', async () => {
    const t = await start({ settings: (s) => { s.createUserDir = true; } });
    expect((await call(t, { method: 'POST', url: '/api/users', payload: newUser({ scope: ' ', username: 'Bob Smith' }) })).statusCode).toBe(201);
    expect(t.store.data().users.find((u) => u.username === 'Bob Smith')!.scope).toBe('/users/Bob-Smith');
    expect((await stat(join(t.root, 'users', 'Bob-Smith'))).isDirectory()).toBe(true);
  });

  it('needs no current password under another auth method', async () => {
    const t = await start({ settings: (s) => { s.authMethod = 'noauth'; } });
    expect((await call(t, { method: 'POST', url: '/api/users', payload: newUser({}, { current_password: '' }) })).statusCode).toBe(201);
  });

  it.each([
    ['a wrong current password', newUser({}, { current_password: 'nope' }), 400, 'the current password is incorrect'],
    ['no current password', newUser({}, { current_password: undefined }), 400, 'the current password is incorrect'],
    ['a non-empty which', newUser({}, { which: ['username'] }), 400, undefined],
    ['an empty password', newUser({ password: '' }), 400, 'password is empty'],
    ['a short password', newUser({ password: 'short' }), 400, 'password is too short, minimum length is 12'],
    ['a common password', newUser({ password: 'qwertyuiop123' }), 400, 'password is too easy'],
    ['share without download', newUser({ perm: { share: true, download: false } }), 400, 'permission to share requires permission to download'],
    ['an empty username', newUser({ username: '' }), 400, 'username is empty'],
    ['a duplicate username', newUser({ username: 'admin' }), 409, undefined],
    ['a wrong what', newUser({}, { what: 'share' }), 400, 'invalid data type'],
    ['no data', { what: 'user', which: [], current_password: TEST_ADMIN.password }, 400, 'missing data'],
    ['malformed JSON', '{"what":"user",', 400, undefined],
    ['a non-object body', '"user"', 400, undefined],
    ['an invalid rule regex', newUser({ rules: [{ regex: true, allow: false, path: '', regexp: { raw: '(' } }] }), 400, undefined],
    ['a wrongly typed field', newUser({ perm: 'all' }), 400, undefined],
  ])('refuses %s and changes nothing', async (...row) => {
    const [, payload, status, message] = row;
    const t = await start();
    const before = stateOf(t);
    const res = await call(t, { method: 'POST', url: '/api/users', payload });
    expect(res.statusCode).toBe(status);
    if (message) expect(res.body).toBe(`400 Bad Request (${message})\n`);
    expect(stateOf(t)).toBe(before);
  });

  it('is for admins only', async () => {
    const t = await start();
    await withBob(t);
    const res = await call(t, { method: 'POST', url: '/api/users', as: 'bob', payload: newUser({ username: 'eve' }, { current_password: defaultPasswordOf('bob') }) });
    expect(res.statusCode).toBe(403);
  });
});

describe('PUT /api/users/{id}', () => {
  const put = (t: TestApp, id: number, body: Record<string, unknown> & { as?: string }) => {
    const { as, ...rest } = body;
    return call(t, { method: 'PUT', url: `/api/users/${id}`, as, payload: { what: 'user', ...rest } });
  };

  it('lets a user change its profile fields without a password', async () => {
    const t = await start();
    const bob = await withBob(t);
    const which = ['locale', 'hideDotfiles', 'singleClick', 'redirectAfterCopyMove', 'dateFormat', 'aceEditorTheme', 'viewMode', 'sorting'];
    const data = { id: bob.id, locale: 'fr', hideDotfiles: true, singleClick: true, redirectAfterCopyMove: true, dateFormat: true, aceEditorTheme: 'monokai', viewMode: 'mosaic', sorting: { by: 'size', asc: true }, username: 'ignored' };
    expect((await put(t, bob.id, { which, data, as: 'bob' })).statusCode).toBe(200);
    expect(t.store.data().users.find((u) => u.id === bob.id)).toMatchObject({ ...data, username: 'bob' });
  });

  it.each(['username', 'scope', 'lockPassword', 'perm', 'commands', 'rules'])('forbids a non-admin to change %s (403)', async (field) => {
    const t = await start();
    const bob = await withBob(t);
    const before = stateOf(t);
    const data = { id: bob.id, username: 'root', scope: '/', lockPassword: false, perm: { admin: true, execute: true }, commands: ['sh'], rules: [] };
    const res = await put(t, bob.id, { which: [field], current_password: defaultPasswordOf('bob'), data, as: 'bob' });
    expect(res.statusCode).toBe(403);
    expect(stateOf(t)).toBe(before);
  });

  it('forbids a non-admin to replace its whole record (which: all or empty)', async () => {
    const t = await start();
    const bob = await withBob(t);
    for (const which of [['all'], []]) {
      const res = await put(t, bob.id, { which, current_password: defaultPasswordOf('bob'), data: { id: bob.id, username: 'bob', perm: { admin: true } }, as: 'bob' });
      expect(res.statusCode).toBe(403);
    }
    expect(t.store.data().users.find((u) => u.id === bob.id)!.perm.admin).toBe(false);
  });

  it.each(['password', 'username', 'scope', 'commands', 'perm', 'all', 'lockPassword', 'PERM'])('requires the current password to change %s', async (field) => {
    const t = await start();
    const bob = await withBob(t);
    const before = stateOf(t);
    const res = await put(t, bob.id, { which: [field], current_password: 'wrong', data: { id: bob.id, username: 'bob', password: NEW_PASSWORD } });
    expect(res.body).toBe('400 Bad Request (the current password is incorrect)\n');
    expect(stateOf(t)).toBe(before);
  });

  it('lets a user change its own password, ending its older tokens', async () => {
    const t = await start();
    const bob = await withBob(t);
    const res = await put(t, bob.id, { which: ['password'], current_password: defaultPasswordOf('bob'), data: { id: bob.id, password: NEW_PASSWORD }, as: 'bob' });
    expect(res.statusCode).toBe(200);
    expect(await verifyPassword(NEW_PASSWORD, t.store.data().users.find((u) => u.id === bob.id)!.password)).toBe(true);
  });

  it('forbids a password change to a non-admin with lockPassword', async () => {
    const t = await start();
    const bob = await withBob(t, { lockPassword: true });
    const res = await put(t, bob.id, { which: ['password'], current_password: defaultPasswordOf('bob'), data: { id: bob.id, password: NEW_PASSWORD }, as: 'bob' });
    expect(res.statusCode).toBe(403);
  });

  it('lets an admin replace a whole record, keeping the hash when no password is sent', async () => {
    const t = await start();
    const bob = await withBob(t);
    const data = { id: bob.id, username: 'robert', password: '', scope: '/robert', perm: { create: true, download: true, share: true }, commands: null, rules: [{ regex: true, allow: false, path: '', regexp: { raw: '(?i)\\.secret$' } }] };
    expect((await put(t, bob.id, { which: ['all'], current_password: TEST_ADMIN.password, data })).statusCode).toBe(200);
    const stored = t.store.data().users.find((u) => u.id === bob.id)!;
    expect(stored).toMatchObject({ username: 'robert', scope: '/robert', commands: [], viewMode: 'list', sorting: { by: 'name', asc: false } });
    expect(stored.perm).toEqual({ admin: false, execute: false, create: true, rename: false, modify: false, delete: false, share: true, download: true });
    expect(stored.password).toBe(bob.password);
  });

  it.each([
    ['a mismatching id', { which: ['locale'], data: { id: 99, locale: 'fr' } }, 400],
    ['a missing id', { which: ['locale'], data: { locale: 'fr' } }, 400],
    ['an unknown field', { which: ['foo'], data: { id: 2 } }, 400],
    ['the id field', { which: ['id'], data: { id: 2 } }, 400],
    ['share without download', { which: ['perm'], current_password: TEST_ADMIN.password, data: { id: 2, perm: { share: true } } }, 400],
    ['an empty username', { which: ['username'], current_password: TEST_ADMIN.password, data: { id: 2, username: '' } }, 400],
    ['a taken username', { which: ['username'], current_password: TEST_ADMIN.password, data: { id: 2, username: 'admin' } }, 409],
    ['an invalid rule regex', { which: ['rules'], data: { id: 2, rules: [{ regex: true, allow: false, path: '', regexp: { raw: '[z-a]' } }] } }, 400],
    ['a short password', { which: ['password'], current_password: TEST_ADMIN.password, data: { id: 2, password: 'short' } }, 400],
    ['no data', { which: ['locale'] }, 400],
    ['a wrong what', { what: 'users', which: ['locale'], data: { id: 2 } }, 400],
  ])('refuses %s and changes nothing', async (_name, body, status) => {
    const t = await start();
    await withBob(t);
    const before = stateOf(t);
    const res = await put(t, 2, body);
    expect(res.statusCode).toBe(status);
    expect(stateOf(t)).toBe(before);
  });

  it('answers 403 to a non-admin updating someone else, 404 for a missing user', async () => {
    const t = await start();
    await withBob(t);
    expect((await put(t, 1, { which: ['locale'], data: { id: 1, locale: 'fr' }, as: 'bob' })).statusCode).toBe(403);
    expect((await put(t, 99, { which: ['locale'], data: { id: 99, locale: 'fr' } })).statusCode).toBe(404);
  });

  it('answers 400 to malformed JSON', async () => {
    const t = await start();
    expect((await call(t, { method: 'PUT', url: '/api/users/1', payload: '{nope' })).statusCode).toBe(400);
  });
});

describe('DELETE /api/users/{id}', () => {
  const del = (t: TestApp, id: number, req: { payload: unknown; as?: string }) => call(t, { method: 'DELETE', url: `/api/users/${id}`, ...req });

  it('lets a user delete itself with its password, ending its tokens', async () => {
    const t = await start();
    const bob = await withBob(t);
    const token = t.token('bob');
    expect((await del(t, bob.id, { payload: { current_password: defaultPasswordOf('bob') }, as: 'bob' })).statusCode).toBe(200);
    expect(t.store.data().users.map((u) => u.username)).toEqual(['admin']);
    expect((await t.app.inject({ method: 'POST', url: '/api/renew', headers: { 'x-auth': token } })).statusCode).toBe(401);
  });

  it.each([
    ['no body', undefined, 'admin', 2, 400],
    ['an empty body', '', 'admin', 2, 400],
    ['a wrong password', { current_password: 'wrong' }, 'admin', 2, 400],
    ['another user as a non-admin', { current_password: 'x' }, 'bob', 1, 403],
    ['a missing user', { current_password: TEST_ADMIN.password }, 'admin', 99, 404],
    ['the sole admin', { current_password: TEST_ADMIN.password }, 'admin', 1, 403],
  ])('refuses %s and changes nothing', async (...row) => {
    const [, payload, as, id, status] = row;
    const t = await start();
    await withBob(t);
    const before = stateOf(t);
    expect((await del(t, id, { payload, as })).statusCode).toBe(status);
    expect(stateOf(t)).toBe(before);
  });

  it('deletes the user\'s share links with the user, keeping everyone else\'s', async () => {
    const t = await start({ tree: { 'bob/f.txt': 'x', 'a.txt': 'y' } });
    const bob = await withBob(t, { perm: { share: true, download: true } });
    const share = (path: string, as?: string) => call(t, { method: 'POST', url: `/api/share${path}`, as, payload: {} });
    expect((await share('/f.txt', 'bob')).statusCode).toBe(200);
    const kept = (await share('/a.txt')).json<{ hash: string }>().hash;
    expect((await call(t, { method: 'GET', url: '/api/shares' })).json()).toHaveLength(2);
    expect((await del(t, bob.id, { payload: { current_password: TEST_ADMIN.password } })).statusCode).toBe(200);
    const listed = (await call(t, { method: 'GET', url: '/api/shares' })).json<{ hash: string; userID: number }[]>();
    expect(listed.map((l) => [l.hash, l.userID])).toEqual([[kept, 1]]);
  });

  it('deletes an admin while another admin remains', async () => {
    const t = await start();
    const second = await t.addUser({ username: 'root2', perm: { admin: true } });
    expect((await del(t, 1, { payload: { current_password: defaultPasswordOf('root2') }, as: 'root2' })).statusCode).toBe(200);
    expect((await del(t, second.id, { payload: { current_password: defaultPasswordOf('root2') }, as: 'root2' })).statusCode).toBe(403);
  });
});
