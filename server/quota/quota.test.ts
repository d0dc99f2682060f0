import { execFileSync } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { appsForEachTest } from '../../tests/support/per-test';
import { call } from '../../tests/support/resource-calls';
import type { TestApp } from '../../tests/support/test-app';
import { OCTET } from '../../tests/support/tus-client';

const start = appsForEachTest();
const KiB = 1024;
const MiB = 1024 * KiB;

/** An app whose user 'q' (scope /q, quota `quota` bytes) holds old.bin (100 KiB) and notes.txt. */
async function withQuota(quota: number, config: { indexInterval?: number } = {}): Promise<TestApp> {
  const t = await start({ tree: { 'q/old.bin': Buffer.alloc(100 * KiB, 1), 'q/notes.txt': 'keep me', 'other/big.bin': Buffer.alloc(MiB) }, config });
  await t.addUser({ username: 'q', scope: '/q', quota, perm: { create: true, modify: true, rename: true, delete: true, download: true } });
  return t;
}

/** A stream goes chunked, without a Content-Length (as a browser's or curl's streamed upload). */
const CHUNKED = { 'transfer-encoding': 'chunked', 'content-type': 'application/octet-stream' };
const headersOf = (body: Buffer | Readable): Record<string, string> => (body instanceof Readable ? CHUNKED : {});
const post = (t: TestApp, path: string, body: Buffer | Readable) =>
  call(t, { method: 'POST', url: `/api/resources${path}`, payload: body, headers: headersOf(body), as: 'q' });
const usage = async (t: TestApp): Promise<{ total: number; used: number }> => JSON.parse((await call(t, { method: 'GET', url: '/api/usage/', as: 'q' })).body) as { total: number; used: number };
const names = async (t: TestApp, dir = 'q'): Promise<string[]> => (await readdir(join(t.root, dir))).sort();
const ORIGINAL = ['notes.txt', 'old.bin'];

/** A body without a Content-Length: its bytes come as a stream. */
function streamOf(bytes: number): Readable {
  const chunk = Buffer.alloc(64 * KiB, 2);
  return Readable.from((function* () {
    for (let sent = 0; sent < bytes; sent += chunk.length) yield chunk.subarray(0, Math.min(chunk.length, bytes - sent));
  })());
}

describe('usage against a quota (GET /api/usage)', () => {
  it('answers the quota and the bytes below the scope, other users\' files not counted', async () => {
    const t = await withQuota(MiB);
    expect(await usage(t)).toEqual({ total: MiB, used: 100 * KiB + 7 });
  });

  it('counts the trash: a deleted file still counts until the trash is emptied', async () => {
    const t = await withQuota(MiB);
    expect((await call(t, { method: 'DELETE', url: '/api/resources/old.bin', as: 'q' })).statusCode).toBe(204);
    expect(await names(t)).toEqual(['notes.txt']);
    await vi.waitFor(async () => expect((await usage(t)).used).toBe(100 * KiB + 7), { timeout: 5000 });
  });

  it('follows writes, a permanent delete and a move out of the scope-free root', async () => {
    const t = await withQuota(MiB);
    expect((await post(t, '/new.bin', Buffer.alloc(10 * KiB))).statusCode).toBe(200);
    await vi.waitFor(async () => expect((await usage(t)).used).toBe(110 * KiB + 7), { timeout: 5000 });
    expect((await call(t, { method: 'DELETE', url: '/api/resources/old.bin?permanent=true', as: 'q' })).statusCode).toBe(204);
    await vi.waitFor(async () => expect((await usage(t)).used).toBe(10 * KiB + 7), { timeout: 5000 });
    const move = await call(t, { method: 'PATCH', url: `/api/resources/new.bin?action=rename&destination=${encodeURIComponent('/sub/new.bin')}`, as: 'q' });
    expect(move.statusCode).toBe(200);
    await vi.waitFor(async () => expect((await usage(t)).used).toBe(10 * KiB + 7), { timeout: 5000 });
  });

  it('answers the disk\'s figures for a user without a quota', async () => {
    const t = await withQuota(0);
    expect((await usage(t)).total).toBeGreaterThan(MiB * 10);
  });

  it('takes its figures from the search index when it is on', async () => {
    const t = await withQuota(MiB, { indexInterval: 3_600_000 });
    expect(await usage(t)).toEqual({ total: MiB, used: 100 * KiB + 7 });
    expect((await post(t, '/n.bin', Buffer.alloc(KiB))).statusCode).toBe(200);
    await vi.waitFor(async () => expect((await usage(t)).used).toBe(101 * KiB + 7), { timeout: 10_000 });
  });
});

describe('507 Insufficient Storage, nothing written', () => {
  it('refuses a raw POST by its Content-Length before a byte is written', async () => {
    const t = await withQuota(200 * KiB);
    const res = await post(t, '/big.bin', Buffer.alloc(150 * KiB));
    expect(res.statusCode).toBe(507);
    expect(res.body).toBe('507 Insufficient Storage\n');
    expect(await names(t)).toEqual(ORIGINAL);
  });

  it('refuses a raw POST without a Content-Length once the stream passes the room, and removes the partial file', async () => {
    const t = await withQuota(200 * KiB);
    const res = await post(t, '/big.bin', streamOf(400 * KiB));
    expect(res.statusCode).toBe(507);
    expect(await names(t)).toEqual(ORIGINAL);
  });

  it('keeps the previous file whole when a replacing PUT passes the quota, and counts only growth', async () => {
    const t = await withQuota(200 * KiB);
    const put = (body: Buffer | Readable) => call(t, { method: 'PUT', url: '/api/resources/old.bin', payload: body, headers: headersOf(body), as: 'q' });
    expect((await put(Buffer.alloc(250 * KiB))).statusCode).toBe(507);
    expect((await put(streamOf(250 * KiB))).statusCode).toBe(507);
    expect(await readFile(join(t.root, 'q/old.bin'))).toEqual(Buffer.alloc(100 * KiB, 1));
    expect(await names(t)).toEqual(ORIGINAL);
    // 190 KiB in place of 100 KiB grows by 90 KiB: fits in the 200 KiB quota beside notes.txt.
    expect((await put(Buffer.alloc(190 * KiB))).statusCode).toBe(200);
  });

  it('refuses a copy whose sum does not fit, and lets one that fits through', async () => {
    const t = await withQuota(250 * KiB);
    const copy = (to: string) => call(t, { method: 'PATCH', url: `/api/resources/old.bin?action=copy&destination=${encodeURIComponent(to)}`, as: 'q' });
    expect((await copy('/a.bin')).statusCode).toBe(200);
    await vi.waitFor(async () => expect((await usage(t)).used).toBe(200 * KiB + 7), { timeout: 5000 });
    expect((await copy('/b.bin')).statusCode).toBe(507);
    expect(await names(t)).toEqual(['a.bin', ...ORIGINAL]);
  });

  it('refuses a tus creation by Upload-Length, and a PATCH that would pass the room', async () => {
    const t = await withQuota(300 * KiB);
    const tus = (method: 'POST' | 'PATCH', headers: Record<string, string>, body?: Buffer) =>
      call(t, { method, url: '/api/tus/up.bin', headers, as: 'q', ...(body ? { payload: body } : {}) });
    expect((await tus('POST', { 'upload-length': String(400 * KiB) })).statusCode).toBe(507);
    expect(await names(t)).toEqual(ORIGINAL);
    expect((await tus('POST', { 'upload-length': String(150 * KiB) })).statusCode).toBe(201);
    // Meanwhile another write takes most of the room: the PATCH no longer fits.
    expect((await post(t, '/other.bin', Buffer.alloc(100 * KiB))).statusCode).toBe(200);
    await vi.waitFor(async () => expect((await usage(t)).used).toBe(200 * KiB + 7), { timeout: 5000 });
    const patch = await tus('PATCH', { 'content-type': OCTET, 'upload-offset': '0' }, Buffer.alloc(150 * KiB));
    expect(patch.statusCode).toBe(507);
    expect((await names(t)).filter((n) => !n.startsWith('.filemgr-tmp-'))).toEqual(['notes.txt', 'old.bin', 'other.bin']);
    const head = await call(t, { method: 'HEAD', url: '/api/tus/up.bin', as: 'q' });
    expect(head.headers['upload-offset']).toBe('0');
  });

  it('refuses an extraction beyond the room and removes what it wrote', async () => {
    const t = await withQuota(300 * KiB);
    const src = join(t.root, 'q', 'src');
    execFileSync('mkdir', ['-p', src]);
    execFileSync('sh', ['-c', `head -c 409600 /dev/zero > "${src}/zeros.bin" && cd "${src}" && tar -czf ../z.tgz zeros.bin && rm -r "${src}"`]);
    const res = await call(t, { method: 'PATCH', url: `/api/resources/z.tgz?action=extract&destination=${encodeURIComponent('/out')}`, as: 'q' });
    expect(res.statusCode).toBe(507);
    expect((await names(t)).filter((n) => n !== 'z.tgz')).toEqual(ORIGINAL);
  });

  it('places only one of two concurrent extractions that each fit the room but not together', async () => {
    const t = await withQuota(MiB);
    const src = join(t.root, 'q', 'src');
    execFileSync('mkdir', ['-p', src]);
    // 600 KiB each: both fit the ~900 KiB left at their start; the second to be placed does not.
    execFileSync('sh', ['-c', `head -c 614400 /dev/zero > "${src}/zeros.bin" && cd "${src}" && tar -czf ../z.tgz zeros.bin && rm -r "${src}"`]);
    const extract = (to: string) => call(t, { method: 'PATCH', url: `/api/resources/z.tgz?action=extract&destination=${encodeURIComponent(to)}`, as: 'q' });
    const [a, b] = await Promise.all([extract('/one'), extract('/two')]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 507]);
    const placed = a.statusCode === 200 ? 'one' : 'two';
    expect((await names(t)).filter((n) => n !== 'z.tgz')).toEqual([...ORIGINAL, placed].sort());
    expect(await readdir(join(t.root, 'q', placed))).toEqual(['zeros.bin']);
  });

  it('accepts exactly what fits of concurrent uploads that together pass the quota', async () => {
    const t = await withQuota(5 * MiB + 100 * KiB + 7);
    const sent = await Promise.all(Array.from({ length: 10 }, (_, i) => post(t, `/p${i}.bin`, Buffer.alloc(MiB))));
    const codes = sent.map((r) => r.statusCode).sort();
    expect(codes).toEqual([...Array<number>(5).fill(200), ...Array<number>(5).fill(507)]);
    expect((await names(t)).filter((n) => n.startsWith('p'))).toHaveLength(5);
    await vi.waitFor(async () => expect((await usage(t)).used).toBe(5 * MiB + 100 * KiB + 7), { timeout: 5000 });
  });

  it('accepts exactly what fits of concurrent streams without a length', async () => {
    const t = await withQuota(3 * MiB + 100 * KiB + 7);
    const sent = await Promise.all(Array.from({ length: 6 }, (_, i) => post(t, `/s${i}.bin`, streamOf(MiB))));
    expect(sent.filter((r) => r.statusCode === 200).length).toBeLessThanOrEqual(3);
    const kept = (await names(t)).filter((n) => n.startsWith('s'));
    expect(kept).toHaveLength(sent.filter((r) => r.statusCode === 200).length);
    expect(sent.every((r) => r.statusCode === 200 || r.statusCode === 507)).toBe(true);
    // No reservation is left behind: what was refused fits again now, up to the quota.
    await vi.waitFor(async () => expect((await usage(t)).used).toBe(kept.length * MiB + 100 * KiB + 7), { timeout: 5000 });
  });
});

describe('the quota field (PUT /api/users/{id}, which: ["quota"])', () => {
  const setQuota = (t: TestApp, id: number, opts: { quota: number; as?: string }) =>
    call(t, { method: 'PUT', url: `/api/users/${id}`, payload: { what: 'user', which: ['quota'], current_password: 'admin-Pa55word!', data: { id, quota: opts.quota } }, ...(opts.as ? { as: opts.as } : {}) });

  it('is set by an admin, answered by GET, and 0 is no quota', async () => {
    const t = await withQuota(0);
    const q = t.store.data().users.find((u) => u.username === 'q')!;
    expect((await setQuota(t, q.id, { quota: 10 * MiB })).statusCode).toBe(200);
    expect(JSON.parse((await call(t, { method: 'GET', url: `/api/users/${q.id}` })).body)).toMatchObject({ username: 'q', quota: 10 * MiB });
    expect(await usage(t)).toEqual({ total: 10 * MiB, used: 100 * KiB + 7 });
    expect((await setQuota(t, q.id, { quota: 0 })).statusCode).toBe(200);
    expect(t.store.data().users.find((u) => u.id === q.id)?.quota).toBe(0);
  });

  it('may not be set by the user themself (403) nor be negative (400)', async () => {
    const t = await withQuota(MiB);
    const q = t.store.data().users.find((u) => u.username === 'q')!;
    expect((await setQuota(t, q.id, { quota: 0, as: 'q' })).statusCode).toBe(403);
    expect(t.store.data().users.find((u) => u.id === q.id)?.quota).toBe(MiB);
    expect((await setQuota(t, q.id, { quota: -5 })).statusCode).toBe(400);
  });

  it('is 0 in the answer for a user stored without one', async () => {
    const t = await start();
    expect(JSON.parse((await call(t, { method: 'GET', url: '/api/users/1' })).body)).toMatchObject({ quota: 0 });
  });
});
