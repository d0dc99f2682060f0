import { describe, expect, it } from 'vitest';
import { appsForEachTest } from '../../../tests/support/per-test';
import { type TestApp } from '../../../tests/support/test-app';
import type { Tree } from '../../../tests/support/tree';
import type { ShareRecord } from '../../state/schema';

const start = appsForEachTest();

type Method = 'GET' | 'POST' | 'DELETE';
const call = (t: TestApp, request: `${Method} ${string}`, opts: { as?: string; body?: string } = {}) => {
  const [method = 'GET', url = '/'] = request.split(' ') as [Method, string];
  return t.app.inject({ method, url, headers: { 'x-auth': t.token(opts.as), 'content-type': 'application/json' }, ...(opts.body === undefined ? {} : { payload: opts.body }) });
};
const post = (t: TestApp, path: string, opts: { body?: unknown; as?: string } = {}) => call(t, `POST /api/share${path}`, { as: opts.as, body: JSON.stringify(opts.body ?? {}) });

const nowSeconds = (): number => Math.floor(Date.now() / 1000);

async function addLinks(t: TestApp, links: ShareRecord[]): Promise<void> {
  await t.store.update((db) => {
    db.shares.push(...links);
  });
}

const SHARER = { perm: { share: true, download: true, create: true, delete: true } };

describe('POST /api/share{p}', () => {
  it('creates a permanent link with an 8-character URL-safe hash and the API fields only', async () => {
    const t = await start({ tree: { 'file.txt': 'x' } });
    const res = await post(t, '/file.txt');
    expect(res.statusCode).toBe(200);
    const body = res.json<Record<string, unknown>>();
    // filebrowser's fields, then beyond.md §2's, with their defaults for a plain link.
    expect(Object.keys(body).sort()).toEqual(['downloads', 'expire', 'hasPassword', 'hash', 'kind', 'maxDownloads', 'path', 'uploads', 'userID']);
    expect(body).toMatchObject({ kind: 'download', maxDownloads: 0, downloads: 0, uploads: 0 });
    expect(body).toMatchObject({ path: '/file.txt', userID: 1, expire: 0, hasPassword: false });
    expect(body.hash).toMatch(/^[A-Za-z0-9_-]{8}$/);
    expect(t.store.data().shares).toEqual([{ hash: body.hash, path: '/file.txt', userID: 1, expire: 0 }]);
  });

  it('never returns the password hash or the token, but stores both (share_test)', async () => {
    const t = await start({ tree: { 'file.txt': 'x' } });
    await t.addUser({ username: 'sharer', ...SHARER });
    const res = await post(t, '/file.txt', { body: { password: 'ShareSecret123!', expires: '24', unit: 'hours' }, as: 'sharer' });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toMatch(/password_hash|token|\$2a\$/);
    const body = res.json<{ hash: string; hasPassword: boolean; expire: number }>();
    expect(body.hasPassword).toBe(true);
    expect(body.expire).toBeGreaterThanOrEqual(nowSeconds() + 24 * 3600 - 5);
    expect(body.expire).toBeLessThanOrEqual(nowSeconds() + 24 * 3600);
    const stored = t.store.data().shares.find((s) => s.hash === body.hash);
    expect(stored?.password_hash).toMatch(/^\$2a\$10\$/);
    expect(stored?.token).toMatch(/^[A-Za-z0-9_-]{128}$/);
    const listed = await call(t, 'GET /api/shares', { as: 'sharer' });
    expect(listed.body).not.toMatch(/password_hash|token/);
  });

  it('keeps the trailing slash of a folder link and the canonical form of the path', async () => {
    const t = await start({ tree: { 'docs/a.txt': 'a' } });
    expect((await post(t, '/docs/')).json()).toMatchObject({ path: '/docs/' });
    expect((await post(t, '//docs/../docs')).json()).toMatchObject({ path: '/docs' });
  });

  it.each([
    ['seconds', 90, 90],
    ['minutes', 90, 90 * 60],
    ['hours', 2, 2 * 3600],
    ['days', 3, 3 * 86_400],
    ['fortnights', 2, 2 * 3600],
    [undefined, 2, 2 * 3600],
  ])('expires after N %s', async (unit, n, seconds) => {
    const t = await start({ tree: { 'f.txt': 'x' } });
    const before = nowSeconds();
    const res = await post(t, '/f.txt', { body: { expires: String(n), ...(unit === undefined ? {} : { unit }) } });
    expect(res.statusCode).toBe(200);
    const { expire } = res.json<{ expire: number }>();
    expect(expire).toBeGreaterThanOrEqual(before + seconds);
    expect(expire).toBeLessThanOrEqual(nowSeconds() + seconds);
  });

  it.each([
    ['an empty string', ''],
    ['zero', '0'],
  ])('makes a permanent link for %s', async (_name, expires) => {
    const t = await start({ tree: { 'f.txt': 'x' } });
    expect((await post(t, '/f.txt', { body: { expires, unit: 'days' } })).json()).toMatchObject({ expire: 0 });
  });

  it('accepts the largest expiry and a JSON number', async () => {
    const t = await start({ tree: { 'f.txt': 'x' } });
    const max = await post(t, '/f.txt', { body: { expires: '2147483647', unit: 'seconds' } });
    expect(max.json<{ expire: number }>().expire).toBeGreaterThanOrEqual(nowSeconds() + 2_147_483_647 - 5);
    expect((await post(t, '/f.txt', { body: { expires: 5, unit: 'minutes' } })).statusCode).toBe(200);
  });

  it.each(['abc', '1.5', '-1', '2147483648', '1e3', ' 5', '5 ', '0x10', '99999999999', '١٢'])('answers 400 for the expiry %j and creates nothing', async (expires) => {
    const t = await start({ tree: { 'f.txt': 'x' } });
    const res = await post(t, '/f.txt', { body: { expires, unit: 'hours' } });
    expect(res.statusCode).toBe(400);
    expect(res.body).toMatch(/^400 Bad Request \(invalid expires/);
    expect(t.store.data().shares).toEqual([]);
  });

  it.each([
    ['an empty body', '', /^400 Bad Request \(/],
    ['invalid JSON', '{"password":', /failed to decode body/],
    ['an array', '[]', /^400 Bad Request/],
    ['a non-string password', '{"password":{"x":1}}', /^400 Bad Request/],
  ])('answers 400 for %s', async (_name, body, text) => {
    const t = await start({ tree: { 'f.txt': 'x' } });
    const res = await call(t, 'POST /api/share/f.txt', { body });
    expect(res.statusCode).toBe(400);
    expect(res.body).toMatch(text);
    expect(t.store.data().shares).toEqual([]);
  });

  it('answers 400 for a request without a body at all', async () => {
    const t = await start({ tree: { 'f.txt': 'x' } });
    const res = await t.app.inject({ method: 'POST', url: '/api/share/f.txt', headers: { 'x-auth': t.token() } });
    expect(res.statusCode).toBe(400);
    expect(t.store.data().shares).toEqual([]);
  });

  it('treats a JSON null body as no options (a permanent link without password)', async () => {
    const t = await start({ tree: { 'f.txt': 'x' } });
    const res = await call(t, 'POST /api/share/f.txt', { body: 'null' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ expire: 0, hasPassword: false });
  });

  it('caps the password at the 72 bytes bcrypt reads', async () => {
    const t = await start({ tree: { 'f.txt': 'x' } });
    const long = await post(t, '/f.txt', { body: { password: 'é'.repeat(37) } });
    expect(long.statusCode).toBe(400);
    expect(long.body).toBe('400 Bad Request (password is too long, maximum length is 72 bytes)\n');
    const huge = await post(t, '/f.txt', { body: { password: 'x'.repeat(500_000) } });
    expect(huge.statusCode).toBe(400);
    expect(t.store.data().shares).toEqual([]);
    expect((await post(t, '/f.txt', { body: { password: 'x'.repeat(72) } })).statusCode).toBe(200);
  });

  it('ignores expires and unit in the query string', async () => {
    const t = await start({ tree: { 'f.txt': 'x' } });
    const res = await call(t, 'POST /api/share/f.txt?expires=5&unit=days', { body: '{}' });
    expect(res.json()).toMatchObject({ expire: 0 });
  });

  it.each<{ name: string; tree: Tree; path: string; status: number }>([
    { name: 'a missing path', tree: {}, path: '/nope.txt', status: 404 },
    { name: 'a symlink escaping the scope', tree: { 'home/link': { symlink: '../outside.txt' } }, path: '/link', status: 403 },
    { name: 'a path a rule denies', tree: { 'home/secret/x.txt': 'x' }, path: '/secret/x.txt', status: 403 },
    { name: 'a dotfile hidden from the owner', tree: { 'home/.env': 'x' }, path: '/.env', status: 403 },
  ])('refuses $name with $status', async ({ tree, path, status }) => {
    const t = await start({ tree: { 'outside.txt': 'secret', 'home/ok.txt': 'ok', ...tree } });
    const rules = [{ regex: false, allow: false, path: '/secret', regexp: null }];
    await t.addUser({ username: 'bob', scope: '/home', rules, hideDotfiles: true, ...SHARER });
    const res = await post(t, path, { as: 'bob' });
    expect(res.statusCode).toBe(status);
    expect(t.store.data().shares).toEqual([]);
  });

  it.each([
    ['without share', { share: false, download: true }],
    ['with share but without download', { share: true, download: false }],
  ])('answers 403 to every share route for a user %s', async (_name, perm) => {
    const t = await start({ tree: { 'f.txt': 'x' } });
    await addLinks(t, [{ hash: 'mine0001', path: '/f.txt', userID: 2, expire: 0 }]);
    await t.addUser({ username: 'bob', perm });
    expect((await post(t, '/f.txt', { as: 'bob' })).statusCode).toBe(403);
    expect((await call(t, 'GET /api/shares', { as: 'bob' })).statusCode).toBe(403);
    expect((await call(t, 'GET /api/share/f.txt', { as: 'bob' })).statusCode).toBe(403);
    expect((await call(t, 'DELETE /api/share/mine0001', { as: 'bob' })).statusCode).toBe(403);
    expect(t.store.data().shares).toHaveLength(1);
  });
});

describe('GET /api/shares and /api/share{p}', () => {
  async function withLinks(): Promise<TestApp> {
    const t = await start({ tree: { 'owner/file.txt': 'x', 'docs/a.txt': 'a' } });
    await t.addUser({ username: 'owner', scope: '/owner', ...SHARER });
    await t.addUser({ username: 'bob', ...SHARER });
    const later = nowSeconds() + 3600;
    await addLinks(t, [
      { hash: 'bobLater', path: '/docs/', userID: 3, expire: later },
      { hash: 'ownerFil', path: '/file.txt', userID: 2, expire: 0 },
      { hash: 'bobPerma', path: '/docs/', userID: 3, expire: 0 },
      { hash: 'adminDoc', path: '/docs', userID: 1, expire: later },
      { hash: 'bobGone1', path: '/docs/', userID: 3, expire: nowSeconds() - 1 },
    ]);
    return t;
  }
  const hashes = (res: { json: <T>() => T }): string[] => res.json<{ hash: string }[]>().map((s) => s.hash);

  it('lists every live link to an admin, sorted by owner then expiry, and deletes the expired ones', async () => {
    const t = await withLinks();
    const res = await call(t, 'GET /api/shares');
    expect(res.statusCode).toBe(200);
    expect(hashes(res)).toEqual(['adminDoc', 'ownerFil', 'bobPerma', 'bobLater']);
    expect(t.store.data().shares.map((s) => s.hash)).not.toContain('bobGone1');
  });

  it("lists only the caller's own links to others", async () => {
    const t = await withLinks();
    expect(hashes(await call(t, 'GET /api/shares', { as: 'bob' }))).toEqual(['bobPerma', 'bobLater']);
    expect(hashes(await call(t, 'GET /api/shares', { as: 'owner' }))).toEqual(['ownerFil']);
  });

  it('answers [] when there is nothing to list', async () => {
    const t = await start();
    const res = await call(t, 'GET /api/shares');
    expect(res.body).toBe('[]');
    expect((await call(t, 'GET /api/share/nothing.txt')).body).toBe('[]');
  });

  it("gives a user their own links of exactly that path (a folder's trailing slash counts)", async () => {
    const t = await withLinks();
    expect(hashes(await call(t, 'GET /api/share/docs/', { as: 'bob' }))).toEqual(['bobPerma', 'bobLater']);
    expect(hashes(await call(t, 'GET /api/share/docs', { as: 'bob' }))).toEqual([]);
  });

  it("shows an admin other users' links to the same file on disk (share_test)", async () => {
    const t = await withLinks();
    const res = await call(t, 'GET /api/share/owner/file.txt');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([{ hash: 'ownerFil', path: '/file.txt', userID: 2, expire: 0, hasPassword: false, kind: 'download', maxDownloads: 0, downloads: 0, uploads: 0 }]);
    expect(hashes(await call(t, 'GET /api/share/docs/'))).toEqual(['adminDoc', 'bobPerma', 'bobLater']);
  });

  it('redirects the bare prefix to the root', async () => {
    const t = await start();
    const res = await call(t, 'GET /api/share');
    expect(res.statusCode).toBe(301);
    expect(res.headers.location).toBe('/api/share/');
  });
});

describe('DELETE /api/share/{hash}', () => {
  async function withLink(): Promise<TestApp> {
    const t = await start({ tree: { 'f.txt': 'x' } });
    await t.addUser({ username: 'owner', ...SHARER });
    await t.addUser({ username: 'other', ...SHARER });
    await addLinks(t, [
      { hash: 'theLink1', path: '/f.txt', userID: 2, expire: 0 },
      { hash: 'expired1', path: '/f.txt', userID: 2, expire: nowSeconds() - 60 },
    ]);
    return t;
  }

  it('lets the owner delete a link and answers 200 OK', async () => {
    const t = await withLink();
    const res = await call(t, 'DELETE /api/share/theLink1/', { as: 'owner' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('200 OK\n');
    expect(t.store.data().shares.map((s) => s.hash)).not.toContain('theLink1');
  });

  it('lets an admin delete anyone\'s link', async () => {
    const t = await withLink();
    expect((await call(t, 'DELETE /api/share/theLink1')).statusCode).toBe(200);
  });

  it('answers 403 to another user and keeps the link', async () => {
    const t = await withLink();
    expect((await call(t, 'DELETE /api/share/theLink1', { as: 'other' })).statusCode).toBe(403);
    expect(t.store.data().shares.map((s) => s.hash)).toContain('theLink1');
  });

  it.each([
    ['an unknown hash', '/api/share/nosuch12', 404],
    ['an expired link', '/api/share/expired1', 404],
    ['an empty hash', '/api/share/', 400],
    ['only slashes', '/api/share///', 400],
  ])('answers %s (%s) with %i', async (_name, url, status) => {
    const t = await withLink();
    expect((await call(t, `DELETE ${url}`, { as: 'owner' })).statusCode).toBe(status);
    expect(t.store.data().shares.map((s) => s.hash)).toContain('theLink1');
  });
});

describe('links and deleted files (storage share tests)', () => {
  async function linked(paths: [number, string][]): Promise<TestApp> {
    const t = await start({ tree: { 'a/child.txt': 'c', 'abc/x.txt': 'x', 'other/y.txt': 'y' } });
    await t.addUser({ username: 'second', ...SHARER });
    await addLinks(
      t,
      paths.map(([userID, path], i) => ({ hash: `link${String(i).padStart(4, '0')}`, path, userID, expire: 0 })),
    );
    return t;
  }
  const remaining = (t: TestApp): string[] => t.store.data().shares.map((s) => `${s.userID}:${s.path}`).sort();

  it.each([
    ['/api/resources/a', ['1:/abc', '1:/other', '2:/a', '2:/a/child.txt']],
    ['/api/resources/a/', ['1:/abc', '1:/other', '2:/a', '2:/a/child.txt']],
  ])("DELETE %s removes the caller's links below it on a '/' boundary only", async (url, left) => {
    const t = await linked([
      [1, '/a'],
      [1, '/a/child.txt'],
      [1, '/abc'],
      [1, '/other'],
      [2, '/a'],
      [2, '/a/child.txt'],
    ]);
    expect((await call(t, `DELETE ${url}`)).statusCode).toBeLessThan(300);
    expect(remaining(t)).toEqual(left);
  });

  it('deletes a folder without any link', async () => {
    const t = await linked([]);
    expect((await call(t, 'DELETE /api/resources/a')).statusCode).toBeLessThan(300);
    expect(remaining(t)).toEqual([]);
  });
});
