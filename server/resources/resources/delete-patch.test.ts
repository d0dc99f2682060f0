import { appsForEachTest } from '../../../tests/support/per-test';
import { lstat, readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TestApp } from '../../../tests/support/test-app';
import { call, canMountTmpfs, userWith, withTmpfs } from '../../../tests/support/resource-calls';

const start = appsForEachTest();
const exists = (p: string) => lstat(p).then(() => true, () => false);

async function addShares(t: TestApp, shares: { path: string; userID: number }[]): Promise<void> {
  await t.store.update((db) => {
    shares.forEach((s, i) => db.shares.push({ hash: `h${i}`, path: s.path, userID: s.userID, expire: 0 }));
  });
}
const remaining = (t: TestApp) => t.store.data().shares.map((s) => `${s.userID}:${s.path}`).sort();

describe('DELETE /api/resources', () => {
  it('removes a file or a tree and answers 204 with an empty body', async () => {
    const t = await start({ tree: { 'a/b/c.txt': 'x', 'f.txt': 'y' } });
    const res = await call(t, { method: 'DELETE', url: '/api/resources/a' });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(await exists(join(t.root, 'a'))).toBe(false);
    expect((await call(t, { method: 'DELETE', url: '/api/resources/f.txt' })).statusCode).toBe(204);
  });

  it.each([
    ['the root', '/api/resources/', 403],
    ['a missing path', '/api/resources/nope', 404],
  ])('refuses %s', async (_label, url, status) => {
    const t = await start({ tree: { 'keep.txt': 'k' } });
    expect((await call(t, { method: 'DELETE', url })).statusCode).toBe(status);
    expect(await exists(join(t.root, 'keep.txt'))).toBe(true);
  });

  it('needs delete permission', async () => {
    const t = await start({ tree: { 'keep.txt': 'k' } });
    const u = await userWith(t, 'u', 'create', 'modify');
    expect((await call(t, { method: 'DELETE', url: '/api/resources/keep.txt', as: u })).statusCode).toBe(403);
    expect(await exists(join(t.root, 'keep.txt'))).toBe(true);
  });

  it('refuses a tree with a denied descendant and deletes nothing', async () => {
    const t = await start({ tree: { 'src/public.txt': 'p', 'src/secret/marker.txt': 'm' }, settings: (s) => { s.rules = [{ regex: false, allow: false, path: '/src/secret', regexp: null }]; } });
    expect((await call(t, { method: 'DELETE', url: '/api/resources/src' })).statusCode).toBe(403);
    expect(await exists(join(t.root, 'src/secret/marker.txt'))).toBe(true);
    expect(await exists(join(t.root, 'src/public.txt'))).toBe(true);
  });

  it('never follows an escaping directory symlink', async () => {
    const t = await start({ tree: { 'scope/link': { symlink: '../outside' }, 'outside/victim.txt': 'v' } });
    await t.store.update((db) => {
      db.users[0]!.scope = '/scope';
    });
    expect((await call(t, { method: 'DELETE', url: '/api/resources/link/victim.txt' })).statusCode).toBe(403);
    expect((await call(t, { method: 'DELETE', url: '/api/resources/link' })).statusCode).toBe(403);
    expect(await readFile(join(t.root, 'outside/victim.txt'), 'utf8')).toBe('v');
  });

  it("removes the caller's shares of the path and below it, on a '/' boundary", async () => {
    const t = await start({ tree: { 'a/child.txt': 'c', 'abc': 'x', 'other': 'o' } });
    const bob = await t.addUser({ username: 'bob', scope: '/' });
    await addShares(t, [
      { path: '/a', userID: 1 }, { path: '/a/child.txt', userID: 1 }, { path: '/abc', userID: 1 }, { path: '/other', userID: 1 },
      { path: '/a', userID: bob.id }, { path: '/a/child.txt', userID: bob.id },
    ]);
    expect((await call(t, { method: 'DELETE', url: '/api/resources/a' })).statusCode).toBe(204);
    expect(remaining(t)).toEqual(['1:/abc', '1:/other', `${bob.id}:/a`, `${bob.id}:/a/child.txt`].sort());
  });

  it('removes the exact directory share when deleted with a trailing slash', async () => {
    const t = await start({ tree: { 'a/child.txt': 'c', 'abc': 'x' } });
    const bob = await t.addUser({ username: 'bob', scope: '/' });
    await addShares(t, [{ path: '/a/', userID: 1 }, { path: '/a/child.txt', userID: 1 }, { path: '/abc', userID: 1 }, { path: '/a', userID: bob.id }]);
    expect((await call(t, { method: 'DELETE', url: '/api/resources/a/' })).statusCode).toBe(204);
    expect(remaining(t)).toEqual(['1:/abc', `${bob.id}:/a`].sort());
  });

  it('deletes fine when there are no shares at all', async () => {
    const t = await start({ tree: { 'a/x': '' } });
    expect((await call(t, { method: 'DELETE', url: '/api/resources/a' })).statusCode).toBe(204);
    expect(t.store.data().shares).toEqual([]);
  });
});

const patch = (t: TestApp, src: string, opts: { query: string; as?: string }) => call(t, { method: 'PATCH', url: `/api/resources${src}?${opts.query}`, as: opts.as });
/** The UI encodes each segment, then encodeURIComponent()s the whole destination again. */
const dest = (path: string) => encodeURIComponent(path.split('/').map(encodeURIComponent).join('/'));

describe('PATCH /api/resources: copy', () => {
  it('copies a tree and answers 200 OK', async () => {
    const t = await start({ tree: { 'clean/file.txt': 'f' } });
    const res = await patch(t, '/clean', { query: `action=copy&destination=${dest('/clean-copy')}&override=false&rename=false` });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('200 OK\n');
    expect(await readFile(join(t.root, 'clean-copy/file.txt'), 'utf8')).toBe('f');
  });

  it('decodes the destination twice, so spaces, % and + survive', async () => {
    const t = await start({ tree: { 'a.txt': 'a' } });
    expect((await patch(t, '/a.txt', { query: `action=copy&destination=${dest('/my dir/100% a+b.txt')}` })).statusCode).toBe(200);
    expect(await readFile(join(t.root, 'my dir/100% a+b.txt'), 'utf8')).toBe('a');
  });

  it('answers 400 for an undecodable destination', async () => {
    const t = await start({ tree: { 'a.txt': 'a' } });
    const res = await patch(t, '/a.txt', { query: 'action=copy&destination=%25E0%25A4%25A' });
    expect(res.statusCode).toBe(400);
  });

  it.each([
    { label: 'exists', query: 'action=copy&destination=%2Fb.txt', status: 409, content: 'B' },
    { label: 'exists, override', query: 'action=copy&destination=%2Fb.txt&override=true', status: 200, content: 'A' },
  ])('when the destination $label answers $status', async ({ query, status, content }) => {
    const t = await start({ tree: { 'a.txt': 'A', 'b.txt': 'B' } });
    expect((await patch(t, '/a.txt', { query })).statusCode).toBe(status);
    expect(await readFile(join(t.root, 'b.txt'), 'utf8')).toBe(content);
  });

  it.each([
    ['a.txt', ['a(1).txt', 'a.txt']],
    ['a.tar.gz', ['a.tar(1).gz', 'a.tar.gz']],
    ['.bashrc', ['(1).bashrc', '.bashrc']],
  ])('keeps both with rename=true: %s', async (name, files) => {
    const t = await start({ tree: { [`d/${name}`]: 'x' } });
    expect((await patch(t, `/d/${name}`, { query: `action=copy&destination=${dest(`/d/${name}`)}&rename=true` })).statusCode).toBe(200);
    expect((await readdir(join(t.root, 'd'))).sort()).toEqual([...files].sort());
  });

  it('numbers past existing copies', async () => {
    const t = await start({ tree: { 'a.txt': 'x', 'a(1).txt': 'y' } });
    expect((await patch(t, '/a.txt', { query: `action=copy&destination=${dest('/a.txt')}&rename=true` })).statusCode).toBe(200);
    expect(await readFile(join(t.root, 'a(2).txt'), 'utf8')).toBe('x');
  });

  it('refuses override without modify permission', async () => {
    const t = await start({ tree: { 'a.txt': 'A', 'b.txt': 'B' } });
    const u = await userWith(t, 'u', 'create', 'rename');
    expect((await patch(t, '/a.txt', { query: 'action=copy&destination=%2Fb.txt&override=true', as: u })).statusCode).toBe(403);
    expect(await readFile(join(t.root, 'b.txt'), 'utf8')).toBe('B');
  });

  it('refuses a copy with a denied descendant, leaving no partial copy', async () => {
    const t = await start({ tree: { 'src/public.txt': 'p', 'src/secret/marker.txt': 'm' }, settings: (s) => { s.rules = [{ regex: false, allow: false, path: '/src/secret', regexp: null }]; } });
    expect((await patch(t, '/src', { query: 'action=copy&destination=%2Fdst' })).statusCode).toBe(403);
    expect(await exists(join(t.root, 'dst'))).toBe(false);
  });

  it('refuses a copy whose destination paths a rule denies', async () => {
    const t = await start({ tree: { 'src/x.txt': 'x' }, settings: (s) => { s.rules = [{ regex: true, allow: false, path: '', regexp: { raw: '^/dst/x' } }]; } });
    expect((await patch(t, '/src', { query: 'action=copy&destination=%2Fdst' })).statusCode).toBe(403);
    expect(await exists(join(t.root, 'dst'))).toBe(false);
  });

  it('does not copy the content of an escaping symlink', async () => {
    const t = await start({ tree: { 'scope/srcdir/link.txt': { symlink: '../../outside/secret.txt' }, 'scope/dstdir/': null, 'outside/secret.txt': 'secret' } });
    await t.store.update((db) => {
      db.users[0]!.scope = '/scope';
    });
    const res = await patch(t, '/srcdir/', { query: 'action=copy&destination=%2Fdstdir%2Fsrcdir' });
    expect(res.statusCode).toBe(403);
    const copied = await readFile(join(t.root, 'scope/dstdir/srcdir/link.txt'), 'utf8').catch(() => '');
    expect(copied).not.toContain('secret');
  });
});

describe('PATCH /api/resources: rename (move)', () => {
  it('moves a file', async () => {
    const t = await start({ tree: { 'docs/a.txt': 'a', 'old/': null } });
    expect((await patch(t, '/docs/a.txt', { query: `action=rename&destination=${dest('/old/a.txt')}&override=false&rename=false` })).statusCode).toBe(200);
    expect(await readFile(join(t.root, 'old/a.txt'), 'utf8')).toBe('a');
    expect(await exists(join(t.root, 'docs/a.txt'))).toBe(false);
  });

  it.each([
    { label: 'into itself', src: '/a', query: 'action=rename&destination=%2Fa%2Fb', status: 400, body: '400 Bad Request (source is parent)\n' },
    { label: 'from the root', src: '/', query: 'action=rename&destination=%2Fx', status: 403, body: '403 Forbidden\n' },
    { label: 'onto the root', src: '/a', query: 'action=rename&destination=%2F', status: 403, body: '403 Forbidden\n' },
    { label: 'with an unknown action', src: '/a', query: 'action=zap&destination=%2Fx', status: 400, body: '400 Bad Request (unsupported action zap: invalid request params)\n' },
    { label: 'without rename permission', src: '/a', query: 'action=rename&destination=%2Fx', status: 403, body: '403 Forbidden\n' },
    { label: 'from a missing path', src: '/nope', query: 'action=rename&destination=%2Fx', status: 404, body: '404 Not Found\n' },
  ])('refuses a move $label', async ({ label, src, query, status, body }) => {
    const t = await start({ tree: { 'a/f.txt': 'f' } });
    const as = label.startsWith('without') ? await userWith(t, 'u', 'create') : undefined;
    const res = await patch(t, src, { query, as });
    expect(res.statusCode).toBe(status);
    expect(res.body).toBe(body);
    expect(await readFile(join(t.root, 'a/f.txt'), 'utf8')).toBe('f');
  });

  it('refuses a move with a denied descendant and keeps the original', async () => {
    const t = await start({ tree: { 'src/public.txt': 'p', 'src/secret/marker.txt': 'm' }, settings: (s) => { s.rules = [{ regex: false, allow: false, path: '/src/secret', regexp: null }]; } });
    expect((await patch(t, '/src', { query: 'action=rename&destination=%2Fmoved' })).statusCode).toBe(403);
    expect(await exists(join(t.root, 'moved'))).toBe(false);
    expect(await exists(join(t.root, 'src/secret/marker.txt'))).toBe(true);
  });

  it('renames onto the same file without 409 (same inode)', async () => {
    const t = await start({ tree: { 'a.txt': 'a', 'l.txt': { symlink: 'a.txt' } } });
    expect((await patch(t, '/a.txt', { query: 'action=rename&destination=%2Fa.txt' })).statusCode).toBe(200);
    expect(await readFile(join(t.root, 'a.txt'), 'utf8')).toBe('a');
  });

  it.skipIf(!canMountTmpfs())('moves across devices by copying then removing the source', async () => {
    const t = await start({ tree: { 'a/f.txt': 'F', 'a/sub/g.txt': 'G', 'mnt/': null } });
    await withTmpfs(join(t.root, 'mnt'), '1m', async () => {
      expect((await patch(t, '/a', { query: 'action=rename&destination=%2Fmnt%2Fa' })).statusCode).toBe(200);
      expect(await readFile(join(t.root, 'mnt/a/sub/g.txt'), 'utf8')).toBe('G');
      expect(await exists(join(t.root, 'a'))).toBe(false);
    });
  });

  it.skipIf(!canMountTmpfs())('keeps the source and removes the partial copy when a cross-device move fails', async () => {
    const t = await start({ tree: { 'a/big.bin': Buffer.alloc(200 * 1024, 7), 'a/small.txt': 's', 'mnt/': null } });
    await withTmpfs(join(t.root, 'mnt'), '64k', async () => {
      expect((await patch(t, '/a', { query: 'action=rename&destination=%2Fmnt%2Fa' })).statusCode).toBe(507);
      expect(await exists(join(t.root, 'mnt/a'))).toBe(false);
      expect((await readFile(join(t.root, 'a/big.bin'))).length).toBe(200 * 1024);
    });
  });

  it('answers 409 for a directory over a file even with override', async () => {
    const t = await start({ tree: { 'a/x': 'x', 'f': 'file' } });
    expect((await patch(t, '/a', { query: 'action=rename&destination=%2Ff&override=true' })).statusCode).toBe(409);
    expect(await readFile(join(t.root, 'f'), 'utf8')).toBe('file');
  });
});
