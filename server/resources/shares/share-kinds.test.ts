import { describe, expect, it } from 'vitest';
import { appsForEachTest } from '../../../tests/support/per-test';
import type { TestApp } from '../../../tests/support/test-app';

const start = appsForEachTest();

const post = (t: TestApp, path: string, { body, as }: { body: unknown; as?: string }) =>
  t.app.inject({ method: 'POST', url: `/api/share${path}`, headers: { 'x-auth': t.token(as), 'content-type': 'application/json' }, payload: JSON.stringify(body) });

const TREE = { 'inbox/old.txt': 'x', 'file.txt': 'y' };

describe('POST /api/share{p} with kind and maxDownloads (beyond.md §2)', () => {
  it('keeps a filebrowser body a plain download link, stored as filebrowser stores it', async () => {
    const t = await start({ tree: TREE });
    const res = await post(t, '/file.txt', { body: { password: '', expires: '', unit: 'hours' } });
    expect(res.json()).toMatchObject({ kind: 'download', maxDownloads: 0, downloads: 0, uploads: 0 });
    expect(Object.keys(t.store.data().shares[0] ?? {}).sort()).toEqual(['expire', 'hash', 'path', 'userID']);
  });

  it('stores a download limit and shows it with the count', async () => {
    const t = await start({ tree: TREE });
    const res = await post(t, '/file.txt', { body: { kind: 'download', maxDownloads: 3 } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ kind: 'download', maxDownloads: 3, downloads: 0 });
    expect(t.store.data().shares[0]).toMatchObject({ maxDownloads: 3, downloads: 0 });
    const list = await t.app.inject({ method: 'GET', url: '/api/shares', headers: { 'x-auth': t.token() } });
    expect(list.json()).toEqual([expect.objectContaining({ maxDownloads: 3, downloads: 0, kind: 'download' })]);
  });

  it('creates an upload link of a folder', async () => {
    const t = await start({ tree: TREE });
    const res = await post(t, '/inbox/', { body: { kind: 'upload', password: 'Secret-123', expires: '2', unit: 'days' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ kind: 'upload', path: '/inbox/', hasPassword: true, uploads: 0, maxDownloads: 0 });
    expect(res.body).not.toMatch(/token|password_hash/);
  });

  it.each([
    { name: 'an unknown kind', body: { kind: 'both' }, status: 400, reason: /invalid kind/ },
    { name: 'a kind of another type', body: { kind: 3 }, status: 400, reason: /kind/ },
    { name: 'a negative limit', body: { maxDownloads: -1 }, status: 400, reason: /maxDownloads/ },
    { name: 'a fractional limit', body: { maxDownloads: 1.5 }, status: 400, reason: /maxDownloads/ },
    { name: 'a limit as text', body: { maxDownloads: 'many' }, status: 400, reason: /maxDownloads/ },
    { name: 'a limit on an upload link', body: { kind: 'upload', maxDownloads: 2 }, status: 400, reason: /no download limit/ },
  ])('refuses $name with $status', async ({ body, status, reason }) => {
    const t = await start({ tree: TREE });
    const res = await post(t, '/inbox/', { body });
    expect(res.statusCode).toBe(status);
    expect(res.body).toMatch(reason);
    expect(t.store.data().shares).toEqual([]);
  });

  it('refuses an upload link of a file (400) and one by a user who may not create (403)', async () => {
    const t = await start({ tree: TREE });
    await t.addUser({ username: 'viewer', perm: { share: true, download: true, create: false } });
    expect((await post(t, '/file.txt', { body: { kind: 'upload' } })).statusCode).toBe(400);
    expect((await post(t, '/inbox/', { body: { kind: 'upload' }, as: 'viewer' })).statusCode).toBe(403);
    expect((await post(t, '/inbox/', { body: { kind: 'download' }, as: 'viewer' })).statusCode).toBe(200);
    expect((await post(t, '/missing/', { body: { kind: 'upload' } })).statusCode).toBe(404);
  });
});
