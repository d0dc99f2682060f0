import { lstat, mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TrashItem } from '../../contract/trash';
import { appsForEachTest } from '../../../tests/support/per-test';
import { call, canMountTmpfs, userWith, withTmpfs } from '../../../tests/support/resource-calls';
import type { TestApp } from '../../../tests/support/test-app';
import { trashBytesOf } from '../../state/trash-records';

const start = appsForEachTest();
const exists = (p: string) => lstat(p).then(() => true, () => false);
const TRASH = '.filemgr-trash';

async function listTrash(t: TestApp, as?: string, query = ''): Promise<TrashItem[]> {
  const res = await call(t, { method: 'GET', url: `/api/trash${query}`, as });
  expect(res.statusCode).toBe(200);
  return res.json<TrashItem[]>();
}

async function del(t: TestApp, path: string, as?: string): Promise<number> {
  return (await call(t, { method: 'DELETE', url: `/api/resources${path}`, as })).statusCode;
}

describe('DELETE /api/resources with the trash on', () => {
  it('moves a file into the trash, answers as before and lists it', async () => {
    const t = await start({ tree: { 'docs/a.txt': 'hello' } });
    expect(await del(t, '/docs/a.txt')).toBe(204);
    expect(await exists(join(t.root, 'docs/a.txt'))).toBe(false);
    const [item, ...rest] = await listTrash(t);
    expect(rest).toEqual([]);
    expect(item).toMatchObject({ name: 'a.txt', path: '/docs/a.txt', isDir: false, size: 5 });
    const days = (Date.parse(item?.expires ?? '') - Date.parse(item?.deleted ?? '')) / 86_400_000;
    expect(days).toBe(30);
    expect(await readFile(join(t.root, TRASH, '1', item?.id ?? '', 'a.txt'), 'utf8')).toBe('hello');
  });

  it('moves a tree in one piece, counts its bytes and lists newest first', async () => {
    const t = await start({ tree: { 'old.txt': 'x', 'tree/a/b.txt': '12345', 'tree/c.txt': '123' } });
    expect(await del(t, '/old.txt')).toBe(204);
    await new Promise((r) => setTimeout(r, 5));
    expect(await del(t, '/tree')).toBe(204);
    const items = await listTrash(t);
    expect(items.map((i) => [i.name, i.isDir, i.size])).toEqual([['tree', true, 8], ['old.txt', false, 1]]);
    // What quotas (beyond.md §6) count for the owner.
    expect(trashBytesOf(t.store, 1)).toBe(9);
    expect(trashBytesOf(t.store, 2)).toBe(0);
  });

  it('keeps two deletions of the same name apart', async () => {
    const t = await start({ tree: { 'a.txt': 'first' } });
    expect(await del(t, '/a.txt')).toBe(204);
    await writeFile(join(t.root, 'a.txt'), 'second');
    expect(await del(t, '/a.txt')).toBe(204);
    const items = await listTrash(t);
    expect(items).toHaveLength(2);
    expect(new Set(items.map((i) => i.id)).size).toBe(2);
  });

  it('deletes for real with ?permanent=true, and when the trash is off', async () => {
    const t = await start({ tree: { 'a.txt': 'a', 'b.txt': 'b' } });
    expect((await call(t, { method: 'DELETE', url: '/api/resources/a.txt?permanent=true' })).statusCode).toBe(204);
    await t.store.update((db) => {
      db.settings.trash = { enabled: false, days: 30 };
    });
    expect(await del(t, '/b.txt')).toBe(204);
    expect(await exists(join(t.root, 'a.txt'))).toBe(false);
    expect(await exists(join(t.root, 'b.txt'))).toBe(false);
    expect(await listTrash(t)).toEqual([]);
  });

  it('deletes the share links of a trashed item and below it', async () => {
    const t = await start({ tree: { 'd/x.txt': 'x', 'keep.txt': 'k' } });
    for (const p of ['/d', '/d/x.txt', '/keep.txt']) {
      expect((await call(t, { method: 'POST', url: `/api/share${p}`, payload: {} })).statusCode).toBe(200);
    }
    expect(await del(t, '/d')).toBe(204);
    expect(t.store.data().shares.map((s) => s.path)).toEqual(['/keep.txt']);
  });

  it('still needs delete permission and refuses the root', async () => {
    const t = await start({ tree: { 'a.txt': 'a' } });
    const u = await userWith(t, 'u', 'create');
    expect(await del(t, '/a.txt', u)).toBe(403);
    expect(await del(t, '/')).toBe(403);
    expect(await listTrash(t)).toEqual([]);
  });

  it.runIf(canMountTmpfs())('falls back to copy then delete when the item is on another filesystem', async () => {
    const t = await start({ tree: { 'mnt/.keep': '' } });
    await withTmpfs(join(t.root, 'mnt'), '1m', async () => {
      await mkdir(join(t.root, 'mnt/sub'));
      await writeFile(join(t.root, 'mnt/sub/f.txt'), 'far');
      expect(await del(t, '/mnt/sub')).toBe(204);
      expect(await exists(join(t.root, 'mnt/sub'))).toBe(false);
      const [item] = await listTrash(t);
      expect(await readFile(join(t.root, TRASH, '1', item?.id ?? '', 'sub/f.txt'), 'utf8')).toBe('far');
      const res = await call(t, { method: 'POST', url: `/api/trash/${item?.id ?? ''}/restore` });
      expect(res.statusCode).toBe(200);
      expect(await readFile(join(t.root, 'mnt/sub/f.txt'), 'utf8')).toBe('far');
    });
  });
});

describe('POST /api/trash/{id}/restore', () => {
  async function trashed(tree: Record<string, string>, path: string): Promise<{ t: TestApp; id: string }> {
    const t = await start({ tree });
    expect(await del(t, path)).toBe(204);
    const [item] = await listTrash(t);
    return { t, id: item?.id ?? '' };
  }
  const restore = (t: TestApp, id: string, opts: { query?: string; as?: string } = {}) => call(t, { method: 'POST', url: `/api/trash/${id}/restore${opts.query ?? ''}`, as: opts.as });

  it('puts a tree back where it was, recreating missing parents', async () => {
    const { t, id } = await trashed({ 'p/q/tree/a.txt': 'A', 'p/q/tree/s/b.txt': 'B' }, '/p/q/tree');
    expect(await del(t, '/p')).toBe(204);
    const res = await restore(t, id);
    expect(res.statusCode).toBe(200);
    expect(res.json<TrashItem>()).toMatchObject({ name: 'tree', path: '/p/q/tree' });
    expect(await readFile(join(t.root, 'p/q/tree/s/b.txt'), 'utf8')).toBe('B');
    expect((await listTrash(t)).map((i) => i.name)).toEqual(['p']);
    expect(await readdir(join(t.root, TRASH, '1'))).toHaveLength(1);
  });

  it('restores to ?destination=', async () => {
    const { t, id } = await trashed({ 'a.txt': 'A', 'other/.keep': '' }, '/a.txt');
    expect((await restore(t, id, { query: '?destination=%2Fother%2Fb.txt' })).statusCode).toBe(200);
    expect(await readFile(join(t.root, 'other/b.txt'), 'utf8')).toBe('A');
  });

  it.each([
    { label: 'no flag', query: '', status: 409, content: 'new' },
    { label: 'override=true', query: '?override=true', status: 200, content: 'old' },
  ])('on an existing target with $label answers $status', async ({ query, status, content }) => {
    const { t, id } = await trashed({ 'a.txt': 'old' }, '/a.txt');
    await writeFile(join(t.root, 'a.txt'), 'new');
    expect((await restore(t, id, { query })).statusCode).toBe(status);
    expect(await readFile(join(t.root, 'a.txt'), 'utf8')).toBe(content);
  });

  it('with rename=true picks a free name', async () => {
    const { t, id } = await trashed({ 'a.txt': 'old' }, '/a.txt');
    await writeFile(join(t.root, 'a.txt'), 'new');
    const res = await restore(t, id, { query: '?rename=true' });
    expect(res.json<TrashItem>().path).toBe('/a(1).txt');
    expect(await readFile(join(t.root, 'a(1).txt'), 'utf8')).toBe('old');
    expect(await readFile(join(t.root, 'a.txt'), 'utf8')).toBe('new');
  });

  it('needs create, and override needs modify', async () => {
    const t = await start({ tree: { 'a.txt': 'A' } });
    await userWith(t, 'd', 'delete');
    await userWith(t, 'dc', 'delete', 'create');
    expect(await del(t, '/a.txt', 'd')).toBe(204);
    const [item] = await listTrash(t, 'd');
    expect((await restore(t, item?.id ?? '', { as: 'd' })).statusCode).toBe(403);
    expect(await del(t, '/a.txt', 'dc')).toBe(404);
    await writeFile(join(t.root, 'a.txt'), 'x');
    expect(await del(t, '/a.txt', 'dc')).toBe(204);
    await writeFile(join(t.root, 'a.txt'), 'y');
    const [mine] = await listTrash(t, 'dc');
    expect((await restore(t, mine?.id ?? '', { query: '?override=true', as: 'dc' })).statusCode).toBe(403);
  });

  it.each([['unknown', '0123456789abcdef'], ['malformed', '..%2F..%2Fetc']])('answers 404 for an %s id', async (_label, id) => {
    const t = await start();
    expect((await restore(t, id)).statusCode).toBe(404);
    expect((await call(t, { method: 'DELETE', url: `/api/trash/${id}` })).statusCode).toBe(404);
  });
});

describe('owners and admins', () => {
  it("hides and protects another user's trash; an admin reaches it with ?user=", async () => {
    const t = await start({ tree: { 'u/a.txt': 'A', 'v/b.txt': 'B' } });
    const alice = await t.addUser({ username: 'alice', scope: '/u', perm: { delete: true, create: true, admin: false } });
    await t.addUser({ username: 'bob', scope: '/v', perm: { delete: true, create: true, admin: false } });
    expect(await del(t, '/a.txt', 'alice')).toBe(204);
    const [item] = await listTrash(t, 'alice');
    expect(item?.path).toBe('/a.txt');
    const id = item?.id ?? '';
    expect(await listTrash(t, 'bob')).toEqual([]);
    expect(await listTrash(t)).toEqual([]);
    expect((await call(t, { method: 'GET', url: `/api/trash?user=${alice.id}`, as: 'bob' })).statusCode).toBe(403);
    expect((await call(t, { method: 'POST', url: `/api/trash/${id}/restore`, as: 'bob' })).statusCode).toBe(404);
    expect((await call(t, { method: 'DELETE', url: `/api/trash/${id}`, as: 'bob' })).statusCode).toBe(404);
    expect((await call(t, { method: 'GET', url: '/api/trash?user=999' })).statusCode).toBe(404);
    expect((await listTrash(t, undefined, `?user=${alice.id}`)).map((i) => i.id)).toEqual([id]);
    expect((await call(t, { method: 'POST', url: `/api/trash/${id}/restore?user=${alice.id}` })).statusCode).toBe(200);
    // Restored into alice's scope, where it was.
    expect(await readFile(join(t.root, 'u/a.txt'), 'utf8')).toBe('A');
  });

  it('deletes one item for ever, and empties a trash', async () => {
    const t = await start({ tree: { 'a.txt': 'A', 'b.txt': 'B', 'c.txt': 'C' } });
    for (const p of ['/a.txt', '/b.txt', '/c.txt']) expect(await del(t, p)).toBe(204);
    const [first] = await listTrash(t);
    expect((await call(t, { method: 'DELETE', url: `/api/trash/${first?.id ?? ''}` })).statusCode).toBe(204);
    expect(await listTrash(t)).toHaveLength(2);
    expect(await exists(join(t.root, TRASH, '1', first?.id ?? ''))).toBe(false);
    expect((await call(t, { method: 'DELETE', url: '/api/trash' })).statusCode).toBe(204);
    expect(await listTrash(t)).toEqual([]);
    expect(await readdir(join(t.root, TRASH, '1'))).toEqual([]);
  });
});

describe('trash settings', () => {
  it('are on for 30 days by default, can change, and refuse days outside 1..3650', async () => {
    const t = await start();
    const get = async () => (await call(t, { method: 'GET', url: '/api/settings' })).json<{ trash: unknown }>();
    expect((await get()).trash).toEqual({ enabled: true, days: 30 });
    const put = async (trash: unknown) => call(t, { method: 'PUT', url: '/api/settings', payload: { ...(await get()), trash } });
    expect((await put({ enabled: false, days: 7 })).statusCode).toBe(200);
    expect((await get()).trash).toEqual({ enabled: false, days: 7 });
    for (const days of [0, 3651, 1.5]) expect((await put({ enabled: true, days })).statusCode).toBe(400);
    const { trash: _trash, ...withoutTrash } = await get();
    expect((await call(t, { method: 'PUT', url: '/api/settings', payload: withoutTrash })).statusCode).toBe(200);
    expect((await get()).trash).toEqual({ enabled: false, days: 7 });
  });
});
