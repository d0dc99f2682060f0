import { appsForEachTest } from '../../../tests/support/per-test';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chmod, lstat, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TEMP_PREFIX } from '../../fs/hidden';
import { call, canMountTmpfs, userWith, withTmpfs } from '../../../tests/support/resource-calls';

const start = appsForEachTest();
const exists = (p: string) => lstat(p).then(() => true, () => false);
const temps = async (dir: string) => (await readdir(dir)).filter((n) => n.startsWith(TEMP_PREFIX));

describe('POST /api/resources', () => {
  it('creates a directory for a trailing slash, and PUT on it answers 405', async () => {
    const t = await start();
    const res = await call(t, { method: 'POST', url: '/api/resources/newdir/' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('200 OK\n');
    expect((await stat(join(t.root, 'newdir'))).isDirectory()).toBe(true);
    expect((await call(t, { method: 'POST', url: '/api/resources/newdir/' })).statusCode).toBe(200);
    expect((await call(t, { method: 'PUT', url: '/api/resources/newdir/', payload: 'x' })).statusCode).toBe(405);
  });

  it('uploads a new file from the raw body with an ETag of mtime and size', async () => {
    const t = await start();
    const res = await call(t, { method: 'POST', url: '/api/resources/sub/new.json?override=false', payload: '{"a":1}', headers: { 'content-type': 'application/json' } });
    expect(res.statusCode).toBe(200);
    expect(await readFile(join(t.root, 'sub/new.json'), 'utf8')).toBe('{"a":1}');
    const s = await stat(join(t.root, 'sub/new.json'), { bigint: true });
    expect(res.headers.etag).toBe(`"${s.mtimeNs.toString(16)}7"`);
  });

  it('creates an empty file from an empty body', async () => {
    const t = await start();
    expect((await call(t, { method: 'POST', url: '/api/resources/empty.txt' })).statusCode).toBe(200);
    expect(await readFile(join(t.root, 'empty.txt'), 'utf8')).toBe('');
  });

  it.each([
    { label: 'without override', perms: 'create,modify', query: '', status: 409 },
    { label: 'with override but no modify permission', perms: 'create', query: '?override=true', status: 403 },
    { label: 'without create permission', perms: 'modify', query: '?override=true', status: 403 },
  ])('refuses an existing file $label', async ({ perms, query, status }) => {
    const t = await start({ tree: { 'f.txt': 'old' } });
    const user = await userWith(t, 'u', ...(perms.split(',') as ('create' | 'modify')[]));
    const res = await call(t, { method: 'POST', url: `/api/resources/f.txt${query}`, payload: 'new', as: user });
    expect(res.statusCode).toBe(status);
    expect(await readFile(join(t.root, 'f.txt'), 'utf8')).toBe('old');
  });

  it('overwrites with override and modify, keeping the mode', async () => {
    const t = await start({ tree: { 'f.txt': 'old' } });
    await chmod(join(t.root, 'f.txt'), 0o611);
    expect((await call(t, { method: 'POST', url: '/api/resources/f.txt?override=true', payload: 'new' })).statusCode).toBe(200);
    expect(await readFile(join(t.root, 'f.txt'), 'utf8')).toBe('new');
    expect((await stat(join(t.root, 'f.txt'))).mode & 0o777).toBe(0o611);
  });

  it('refuses to write a file over a directory and keeps the directory', async () => {
    const t = await start({ tree: { 'd/keep.txt': 'k' } });
    const res = await call(t, { method: 'POST', url: '/api/resources/d?override=true', payload: 'x' });
    expect(res.statusCode).toBe(400);
    expect(res.body).toBe('400 Bad Request (cannot upload to a directory)\n');
    expect(await readFile(join(t.root, 'd/keep.txt'), 'utf8')).toBe('k');
  });

  it('refuses a dangling symlink that points outside and creates nothing there', async () => {
    const t = await start({ tree: { 'scope/evil': { symlink: '../outside/created.txt' }, 'outside/': null } });
    await t.store.update((db) => {
      db.users[0]!.scope = '/scope';
    });
    const res = await call(t, { method: 'POST', url: '/api/resources/evil?override=true', payload: 'http-outside' });
    expect(res.statusCode).toBe(403);
    expect(await exists(join(t.root, 'outside/created.txt'))).toBe(false);
  });

  it('never deletes through an escaping directory symlink when an upload fails', async () => {
    const t = await start({ tree: { 'scope/link': { symlink: '../outside' }, 'outside/victim.txt': 'victim' } });
    await t.addUser({ username: 'creator', scope: '/scope', perm: { admin: false, execute: false, create: true, rename: false, modify: false, delete: false, share: false, download: false } });
    const res = await call(t, { method: 'POST', url: '/api/resources/link/victim.txt', payload: 'x', as: 'creator' });
    expect(res.statusCode).toBe(403);
    expect(await readFile(join(t.root, 'outside/victim.txt'), 'utf8')).toBe('victim');
  });
});

describe('PUT /api/resources', () => {
  it('saves an existing file whatever the content type, with an ETag', async () => {
    const t = await start({ tree: { 'cfg.json': '{}' } });
    const res = await call(t, { method: 'PUT', url: '/api/resources/cfg.json', payload: 'not json at all', headers: { 'content-type': 'application/json' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers.etag).toMatch(/^"[0-9a-f]+"$/);
    expect(await readFile(join(t.root, 'cfg.json'), 'utf8')).toBe('not json at all');
  });

  it.each([
    ['a missing file', '/api/resources/missing.txt', 404],
    ['a directory', '/api/resources/d', 400],
  ])('refuses %s', async (_label, url, status) => {
    const t = await start({ tree: { 'd/': null } });
    expect((await call(t, { method: 'PUT', url, payload: 'x' })).statusCode).toBe(status);
    expect(await exists(join(t.root, 'missing.txt'))).toBe(false);
  });

  it('needs modify permission', async () => {
    const t = await start({ tree: { 'f.txt': 'old' } });
    const creator = await userWith(t, 'creator', 'create');
    expect((await call(t, { method: 'PUT', url: '/api/resources/f.txt', payload: 'new', as: creator })).statusCode).toBe(403);
    expect(await readFile(join(t.root, 'f.txt'), 'utf8')).toBe('old');
  });

  it('keeps the old content when the connection drops halfway through the body', async () => {
    const t = await start({ tree: { 'f.txt': 'precious old content' } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    await new Promise<void>((resolve) => {
      const req = request({ port, method: 'PUT', path: '/api/resources/f.txt', headers: { 'x-auth': t.token(), 'content-length': '100000' } });
      req.on('error', () => resolve());
      req.write(Buffer.alloc(50000, 0x41), () => setTimeout(() => req.destroy(), 100));
      req.on('close', () => resolve());
    });
    await new Promise((r) => setTimeout(r, 200));
    expect(await readFile(join(t.root, 'f.txt'), 'utf8')).toBe('precious old content');
    expect(await temps(t.root)).toEqual([]);
  });

  it.skipIf(!canMountTmpfs())('answers 507 on a full disk and keeps the old content', async () => {
    const t = await start({ tree: { 'small/': null } });
    const small = join(t.root, 'small');
    await withTmpfs(small, '64k', async () => {
      await writeFile(join(small, 'f.txt'), 'old');
      const res = await call(t, { method: 'PUT', url: '/api/resources/small/f.txt', payload: Buffer.alloc(1024 * 1024, 1) });
      expect(res.statusCode).toBe(507);
      expect(res.body).toBe('507 Insufficient Storage\n');
      expect(await readFile(join(small, 'f.txt'), 'utf8')).toBe('old');
      expect(await temps(small)).toEqual([]);
    });
  });

  it('writes nothing for a path with a NUL byte or an overlong name', async () => {
    const t = await start({ tree: { 'x/': null } });
    await mkdir(join(t.root, 'y'));
    expect((await call(t, { method: 'POST', url: '/api/resources/x/a%00b', payload: 'x' })).statusCode).toBe(400);
    expect((await call(t, { method: 'POST', url: `/api/resources/x/${'n'.repeat(300)}`, payload: 'x' })).statusCode).toBe(400);
    expect(await readdir(join(t.root, 'x'))).toEqual([]);
  });
});
