import bcrypt from 'bcryptjs';
import { describe, expect, it } from 'vitest';
import { appsForEachTest } from '../../../tests/support/per-test';
import { type TestApp, type TestUserFields } from '../../../tests/support/test-app';
import type { Tree } from '../../../tests/support/tree';
import type { ShareRecord } from '../../state/schema';
import { queryUnescape, secretsEqual } from './credentials';

const start = appsForEachTest();

const OWNER: TestUserFields = { username: 'owner', perm: { share: true, download: true, modify: true } };
const TOKEN = '123';

interface Fixture {
  tree?: Tree;
  link?: Partial<ShareRecord>;
  /** Protects the link with this password (bcrypt) and the token '123'. */
  password?: string;
  owner?: Partial<TestUserFields>;
}

/** An app whose user 'owner' (id 2) shares `link` (default: hash 'h' of /file.txt). */
async function withShare(f: Fixture = {}): Promise<TestApp> {
  const t = await start({ tree: f.tree ?? { 'file.txt': 'shared content' } });
  const owner = await t.addUser({ ...OWNER, ...f.owner, perm: { ...OWNER.perm, ...f.owner?.perm } });
  const secrets = f.password === undefined ? {} : { password_hash: bcrypt.hashSync(f.password, 4), token: TOKEN };
  await t.store.update((db) => {
    db.shares.push({ hash: 'h', path: '/file.txt', userID: owner.id, expire: 0, ...secrets, ...f.link });
  });
  return t;
}

type Visit = { headers?: Record<string, string>; address?: string };
const visit = (t: TestApp, url: string, v: Visit = {}) => t.app.inject({ method: 'GET', url, headers: v.headers ?? {}, remoteAddress: v.address ?? '203.0.113.7' });
const withPassword = (password: string): Visit => ({ headers: { 'x-share-password': encodeURIComponent(password) } });

const ROUTES = ['/api/public/share/h', '/api/public/dl/h'];

describe('public share auth matrix (public_test), on both routes', () => {
  it.each(ROUTES)('%s: a link without password opens for anyone', async (route) => {
    const t = await withShare();
    expect((await visit(t, route)).statusCode).toBe(200);
  });

  it.each([
    { name: 'no credentials', query: '', visit: {}, status: 401 },
    { name: 'the right token', query: `?token=${TOKEN}`, visit: {}, status: 200 },
    { name: 'a wrong token', query: '?token=1234', visit: {}, status: 401 },
    { name: 'the right password', query: '', visit: withPassword('password'), status: 200 },
    { name: 'a wrong password', query: '', visit: withPassword('wrong-password'), status: 401 },
    { name: 'an empty password header', query: '', visit: { headers: { 'x-share-password': '' } }, status: 401 },
  ])('a password link with $name answers $status', async ({ query, visit: v, status }) => {
    const t = await withShare({ password: 'password' });
    for (const route of ROUTES) {
      const res = await visit(t, `${route}${query}`, v);
      expect(res.statusCode).toBe(status);
      if (status === 401) expect(res.body).toBe('401 Unauthorized\n');
    }
  });

  it.each([
    ['share', { share: false, download: true }],
    ['download', { share: true, download: false }],
  ])('answers 403 when the owner lost the %s permission', async (_name, perm) => {
    const t = await withShare({ owner: { perm } });
    for (const route of ROUTES) expect((await visit(t, route)).statusCode).toBe(403);
  });

  it('answers 404 when the owner was deleted', async () => {
    const t = await withShare();
    await t.store.update((db) => {
      db.users = db.users.filter((u) => u.username !== 'owner');
    });
    for (const route of ROUTES) expect((await visit(t, route)).statusCode).toBe(404);
  });

  it('checks the password before saying anything about the owner', async () => {
    const t = await withShare({ password: 'password', owner: { perm: { share: false } } });
    expect((await visit(t, '/api/public/share/h')).statusCode).toBe(401);
    expect((await visit(t, '/api/public/share/h', withPassword('password'))).statusCode).toBe(403);
  });
});

describe('passwords and tokens', () => {
  it('accepts a password with reserved characters sent URL-encoded, + being a space', async () => {
    const t = await withShare({ password: 'p@ss wörd+&=/%' });
    expect((await visit(t, '/api/public/share/h', withPassword('p@ss wörd+&=/%'))).statusCode).toBe(200);
    const plus = { headers: { 'x-share-password': 'p%40ss+w%C3%B6rd%2B%26%3D%2F%25' } };
    expect((await visit(t, '/api/public/share/h', plus)).statusCode).toBe(200);
  });

  it('answers 400 to a password header that is not valid URL encoding', async () => {
    const t = await withShare({ password: 'password' });
    const res = await visit(t, '/api/public/share/h', { headers: { 'x-share-password': '%E0%A4%A' } });
    expect(res.statusCode).toBe(400);
    expect(res.body).toBe('400 Bad Request (invalid X-SHARE-PASSWORD encoding)\n');
  });

  it.each([
    ['a prefix of the token', TOKEN.slice(0, 2)],
    ['the token with one more character', `${TOKEN}4`],
    ['another case', TOKEN.toUpperCase() === TOKEN ? `${TOKEN}a` : TOKEN.toUpperCase()],
    ['an empty token', ''],
  ])('refuses %s', async (_name, token) => {
    const t = await withShare({ password: 'password' });
    expect((await visit(t, `/api/public/dl/h?token=${encodeURIComponent(token)}`)).statusCode).toBe(401);
  });

  it("does not open one link with another link's token", async () => {
    const t = await withShare({ password: 'password', tree: { 'file.txt': 'a', 'other.txt': 'b' } });
    await t.store.update((db) => {
      db.shares.push({ hash: 'k', path: '/other.txt', userID: 2, expire: 0, password_hash: bcrypt.hashSync('other', 4), token: 'another-token' });
    });
    expect((await visit(t, `/api/public/dl/k?token=${TOKEN}`)).statusCode).toBe(401);
    expect((await visit(t, '/api/public/dl/k?token=another-token')).body).toBe('b');
  });

  it('answers a huge password with 401 without trying it', async () => {
    const t = await withShare({ password: 'password' });
    const started = Date.now();
    const res = await visit(t, '/api/public/share/h', { headers: { 'x-share-password': 'x'.repeat(12_000) } });
    expect(res.statusCode).toBe(401);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('gives the token only after the password, on the top-level object only', async () => {
    const t = await withShare({ password: 'password', tree: { 'dir/a.txt': 'a' }, link: { path: '/dir/' } });
    expect((await visit(t, '/api/public/share/h')).body).not.toContain(TOKEN);
    const res = await visit(t, '/api/public/share/h', withPassword('password'));
    const body = res.json<{ token?: string; items: Record<string, unknown>[] }>();
    expect(body.token).toBe(TOKEN);
    expect(body.items).toHaveLength(1);
    expect(body.items[0]).not.toHaveProperty('token');
    expect(res.body).not.toMatch(/password_hash|\$2a\$/);
  });

  it('never sends a token for a link without password', async () => {
    const t = await withShare({ link: { token: 'stray-token' } });
    expect((await visit(t, '/api/public/share/h')).json()).not.toHaveProperty('token');
  });

  it('compares secrets whatever their lengths', () => {
    expect(secretsEqual('abc', 'abc')).toBe(true);
    expect(secretsEqual('abc', 'abd')).toBe(false);
    expect(secretsEqual('abc', 'abcd')).toBe(false);
    expect(secretsEqual('', '')).toBe(true);
  });

  it.each([
    ['a+b', 'a b'],
    ['a%2Bb', 'a+b'],
    ['%C3%A9', 'é'],
    ['plain', 'plain'],
  ])('query-unescapes %j as %j', (raw, decoded) => {
    expect(queryUnescape(raw)).toBe(decoded);
  });
});

describe('password throttling (api.md §14)', () => {
  it('answers 429 with Retry-After after 5 failures, even to the right password, for that address only', async () => {
    const t = await withShare({ password: 'password' });
    for (let i = 0; i < 3; i++) expect((await visit(t, '/api/public/share/h', withPassword(`wrong-${i}`))).statusCode).toBe(401);
    for (let i = 0; i < 2; i++) expect((await visit(t, `/api/public/dl/h?token=guess${i}`)).statusCode).toBe(401);
    const locked = await visit(t, '/api/public/share/h', withPassword('password'));
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(800);
    expect((await visit(t, `/api/public/dl/h?token=${TOKEN}`)).statusCode).toBe(429);
    expect((await visit(t, '/api/public/share/h')).statusCode).toBe(429);
    expect((await visit(t, '/api/public/share/h', { ...withPassword('password'), address: '198.51.100.2' })).statusCode).toBe(200);
  });

  it('does not count visits that bring no credential (the page asking for the password)', async () => {
    const t = await withShare({ password: 'password' });
    for (let i = 0; i < 8; i++) expect((await visit(t, '/api/public/share/h')).statusCode).toBe(401);
    expect((await visit(t, '/api/public/share/h', withPassword('password'))).statusCode).toBe(200);
  });

  it('counts failures per link', async () => {
    const t = await withShare({ password: 'password', tree: { 'file.txt': 'a', 'other.txt': 'b' } });
    await t.store.update((db) => {
      db.shares.push({ hash: 'k', path: '/other.txt', userID: 2, expire: 0, password_hash: bcrypt.hashSync('other', 4), token: 'tk' });
    });
    for (let i = 0; i < 5; i++) await visit(t, '/api/public/share/h', withPassword(`wrong-${i}`));
    expect((await visit(t, '/api/public/share/h', withPassword('password'))).statusCode).toBe(429);
    expect((await visit(t, '/api/public/share/k', withPassword('other'))).statusCode).toBe(200);
  });
});

describe('links that do not exist', () => {
  it.each(['/api/public/share/nosuch', '/api/public/dl/nosuch/file.txt', '/api/public/share/', '/api/public/dl/'])('answers 404 to %s', async (url) => {
    const t = await withShare();
    expect((await visit(t, url)).statusCode).toBe(404);
  });

  it('answers 404 to an expired link and deletes it', async () => {
    const t = await withShare({ link: { expire: Math.floor(Date.now() / 1000) - 1 } });
    for (const route of ROUTES) expect((await visit(t, route)).statusCode).toBe(404);
    expect(t.store.data().shares).toEqual([]);
  });

  it('opens a link that expires later', async () => {
    const t = await withShare({ link: { expire: Math.floor(Date.now() / 1000) + 60 } });
    expect((await visit(t, '/api/public/dl/h')).body).toBe('shared content');
  });

  it('answers 404 when the shared file is gone', async () => {
    const t = await withShare({ link: { path: '/gone.txt' } });
    for (const route of ROUTES) expect((await visit(t, route)).statusCode).toBe(404);
  });
});
