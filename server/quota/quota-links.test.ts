import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appsForEachTest } from '../../tests/support/per-test';
import { defaultPasswordOf, type TestApp } from '../../tests/support/test-app';
import { OCTET } from '../../tests/support/tus-client';

const start = appsForEachTest();
const KiB = 1024;

/** 'q' (scope /q, quota 200 KiB, using 100 KiB + 7) shares /q/inbox as the upload link 'up'. */
async function withQuota(): Promise<TestApp> {
  const t = await start({ tree: { 'q/old.bin': Buffer.alloc(100 * KiB, 1), 'q/notes.txt': 'keep me', 'q/inbox/': null } });
  const q = await t.addUser({ username: 'q', scope: '/q', quota: 200 * KiB, perm: { create: true, modify: true, rename: true, delete: true, download: true, share: true } });
  await t.store.update((db) => void db.shares.push({ hash: 'up', path: '/inbox/', userID: q.id, expire: 0, kind: 'upload', uploads: 0 }));
  return t;
}

const auth = `Basic ${Buffer.from(`q:${defaultPasswordOf('q')}`).toString('base64')}`;
type DavCall = { method: 'PUT' | 'COPY' | 'PROPFIND'; url: string; headers?: Record<string, string>; body?: Buffer | string };
const dav = (t: TestApp, o: DavCall) =>
  t.app.inject({ method: o.method, url: o.url, headers: { authorization: auth, host: 'localhost', ...o.headers }, ...(o.body === undefined ? {} : { payload: o.body }) });
const names = async (t: TestApp, dir = 'q'): Promise<string[]> => (await readdir(join(t.root, dir))).filter((n) => !n.startsWith('.filemgr-')).sort();

describe('WebDAV under a quota', () => {
  it('answers 507 to a PUT that does not fit, leaving the old file whole', async () => {
    const t = await withQuota();
    expect((await dav(t, { method: 'PUT', url: '/dav/new.bin', body: Buffer.alloc(150 * KiB) })).statusCode).toBe(507);
    expect((await dav(t, { method: 'PUT', url: '/dav/old.bin', body: Buffer.alloc(250 * KiB) })).statusCode).toBe(507);
    expect(await readFile(join(t.root, 'q/old.bin'))).toEqual(Buffer.alloc(100 * KiB, 1));
    expect(await names(t)).toEqual(['inbox', 'notes.txt', 'old.bin']);
    expect((await dav(t, { method: 'PUT', url: '/dav/small.bin', body: Buffer.alloc(10 * KiB) })).statusCode).toBe(201);
  });

  it('answers 507 to a COPY whose sum does not fit', async () => {
    const t = await withQuota();
    const res = await dav(t, { method: 'COPY', url: '/dav/old.bin', headers: { destination: 'http://localhost/dav/copy.bin' } });
    expect(res.statusCode).toBe(507);
    expect(await names(t)).toEqual(['inbox', 'notes.txt', 'old.bin']);
  });

  it('tells quota-available-bytes and quota-used-bytes (RFC 4331) when asked, never in allprop', async () => {
    const t = await withQuota();
    const body = '<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:prop><D:quota-available-bytes/><D:quota-used-bytes/></D:prop></D:propfind>';
    const res = await dav(t, { method: 'PROPFIND', url: '/dav/', headers: { depth: '0' }, body });
    expect(res.statusCode).toBe(207);
    expect(res.body).toContain(`<D:quota-available-bytes>${100 * KiB - 7}</D:quota-available-bytes>`);
    expect(res.body).toContain(`<D:quota-used-bytes>${100 * KiB + 7}</D:quota-used-bytes>`);
    const all = await dav(t, { method: 'PROPFIND', url: '/dav/', headers: { depth: '0' } });
    expect(all.body).not.toContain('quota-');
  });

  it('answers the quota properties 404 for a user without a quota', async () => {
    const t = await withQuota();
    await t.store.update((db) => void (db.users.find((u) => u.username === 'q')!.quota = 0));
    const body = '<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:prop><D:quota-used-bytes/></D:prop></D:propfind>';
    const res = await dav(t, { method: 'PROPFIND', url: '/dav/', headers: { depth: '0' }, body });
    expect(res.body).toMatch(/<D:quota-used-bytes\/>[\s\S]*404/);
  });
});

describe('upload links count towards the owner\'s quota', () => {
  const upload = (t: TestApp, name: string, body: Buffer) => t.app.inject({ method: 'POST', url: `/api/public/upload/up/${name}`, payload: body, remoteAddress: '203.0.113.9' });

  it('answers 507 to a raw upload that does not fit, and stores one that does', async () => {
    const t = await withQuota();
    expect((await upload(t, 'big.bin', Buffer.alloc(150 * KiB))).statusCode).toBe(507);
    expect(await names(t, 'q/inbox')).toEqual([]);
    expect((await upload(t, 'small.bin', Buffer.alloc(10 * KiB))).statusCode).toBe(201);
    expect(await names(t, 'q/inbox')).toEqual(['small.bin']);
  });

  it('answers 507 to a tus creation by its Upload-Length', async () => {
    const t = await withQuota();
    const res = await t.app.inject({ method: 'POST', url: '/api/public/tus/up/big.bin', headers: { 'upload-length': String(150 * KiB), 'tus-resumable': '1.0.0' }, remoteAddress: '203.0.113.9' });
    expect(res.statusCode).toBe(507);
    expect(await names(t, 'q/inbox')).toEqual([]);
  });

  it('lets a tus upload that fits through to the end', async () => {
    const t = await withQuota();
    const created = await t.app.inject({ method: 'POST', url: '/api/public/tus/up/ok.bin', headers: { 'upload-length': String(KiB), 'tus-resumable': '1.0.0' }, remoteAddress: '203.0.113.9' });
    expect(created.statusCode).toBe(201);
    const patch = await t.app.inject({ method: 'PATCH', url: created.headers.location as string, headers: { 'content-type': OCTET, 'upload-offset': '0', 'tus-resumable': '1.0.0' }, payload: Buffer.alloc(KiB), remoteAddress: '203.0.113.9' });
    expect(patch.statusCode).toBe(204);
    expect(await names(t, 'q/inbox')).toEqual(['ok.bin']);
  });
});
