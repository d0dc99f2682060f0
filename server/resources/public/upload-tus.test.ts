import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import bcrypt from 'bcryptjs';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { appsForEachTest } from '../../../tests/support/per-test';
import type { TestApp } from '../../../tests/support/test-app';
import { bytes, OCTET } from '../../../tests/support/tus-client';

const start = appsForEachTest();

async function withUploadLink(password?: string): Promise<TestApp> {
  const t = await start({ tree: { 'inbox/report.pdf': 'old' } });
  const owner = await t.addUser({ username: 'owner', perm: { share: true, download: true, create: true } });
  const secrets = password === undefined ? {} : { password_hash: bcrypt.hashSync(password, 4), token: 'tok' };
  await t.store.update((db) => void db.shares.push({ hash: 'up', path: '/inbox/', userID: owner.id, expire: 0, kind: 'upload', ...secrets }));
  return t;
}

type Method = 'POST' | 'HEAD' | 'PATCH' | 'DELETE';
const tus = (t: TestApp, call: `${Method} /${string}`, o: { headers?: Record<string, string>; body?: Buffer } = {}) =>
  t.app.inject({ method: call.slice(0, call.indexOf(' ')) as Method, url: call.slice(call.indexOf(' ') + 1), headers: { 'tus-resumable': '1.0.0', ...o.headers }, remoteAddress: '203.0.113.8', ...(o.body === undefined ? {} : { payload: o.body }) });
const create = (t: TestApp, name: string, o: { length: number; headers?: Record<string, string> }) =>
  tus(t, `POST /api/public/tus/up/${encodeURIComponent(name)}`, { headers: { 'upload-length': String(o.length), ...o.headers } });
const patch = (t: TestApp, location: string, o: { offset: number; body: Buffer }) =>
  tus(t, `PATCH ${location}` as `PATCH /${string}`, { headers: { 'content-type': OCTET, 'upload-offset': String(o.offset) }, body: o.body });
const locationOf = (res: LightMyRequestResponse): string => String(res.headers.location);
const inbox = async (t: TestApp): Promise<string[]> => (await readdir(join(t.root, 'inbox'))).sort();

describe('tus through an upload link (/api/public/tus/{hash}/{name})', () => {
  it('uploads in chunks, resumes from the offset HEAD tells, and stores the file', async () => {
    const t = await withUploadLink();
    const data = bytes(300_000);
    const created = await create(t, 'video.mp4', { length: data.length });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({ name: 'video.mp4' });
    const location = locationOf(created);
    expect(location).toMatch(/^\/api\/public\/tus\/up\/video\.mp4\?upload=[A-Za-z0-9_-]{22}$/);
    expect((await patch(t, location, { offset: 0, body: data.subarray(0, 100_000) })).headers['upload-offset']).toBe('100000');
    // The visitor comes back (a reload): HEAD says where to go on.
    const head = await tus(t, `HEAD ${location}` as `HEAD /${string}`);
    expect(head.statusCode).toBe(200);
    expect(head.headers).toMatchObject({ 'upload-offset': '100000', 'upload-length': '300000' });
    expect((await patch(t, location, { offset: 0, body: data.subarray(0, 10) })).statusCode).toBe(409);
    const last = await patch(t, location, { offset: 100_000, body: data.subarray(100_000) });
    expect(last.statusCode).toBe(204);
    expect(last.headers['upload-name']).toBe('video.mp4');
    expect(await readFile(join(t.root, 'inbox/video.mp4'))).toEqual(data);
    expect(await inbox(t)).toEqual(['report.pdf', 'video.mp4']);
    expect(t.store.data().shares[0]?.uploads).toBe(1);
    expect((await tus(t, `HEAD ${location}` as `HEAD /${string}`)).statusCode).toBe(404);
  });

  it('names a clashing file "name (1).ext" at creation and never replaces the old one', async () => {
    const t = await withUploadLink();
    const created = await create(t, 'report.pdf', { length: 3 });
    expect(created.json()).toEqual({ name: 'report (1).pdf' });
    expect(locationOf(created)).toContain('/report%20(1).pdf?upload=');
    await patch(t, locationOf(created), { offset: 0, body: Buffer.from('new') });
    expect(await readFile(join(t.root, 'inbox/report.pdf'), 'utf8')).toBe('old');
    expect(await readFile(join(t.root, 'inbox/report (1).pdf'), 'utf8')).toBe('new');
  });

  it('gives two unfinished uploads of one name two names', async () => {
    const t = await withUploadLink();
    const [a, b] = await Promise.all([create(t, 'same.bin', { length: 4 }), create(t, 'same.bin', { length: 4 })]);
    const names = [a?.json<{ name: string }>().name, b?.json<{ name: string }>().name].sort();
    expect(names).toEqual(['same (1).bin', 'same.bin']);
  });

  it('opens HEAD, PATCH and DELETE only with the upload id of the Location', async () => {
    const t = await withUploadLink();
    const location = locationOf(await create(t, 'a.bin', { length: 4 }));
    const bare = location.split('?')[0] ?? '';
    expect((await tus(t, `HEAD ${bare}` as `HEAD /${string}`)).statusCode).toBe(404);
    expect((await tus(t, `HEAD ${bare}?upload=${'A'.repeat(22)}` as `HEAD /${string}`)).statusCode).toBe(404);
    expect((await patch(t, `${bare}?upload=x`, { offset: 0, body: Buffer.from('evil') })).statusCode).toBe(404);
    expect((await tus(t, `HEAD ${location}` as `HEAD /${string}`)).headers['upload-offset']).toBe('0');
  });

  it('needs the password to create; the upload id carries the follow-ups', async () => {
    const t = await withUploadLink('pw');
    expect((await create(t, 'a.bin', { length: 2 })).statusCode).toBe(401);
    const created = await create(t, 'a.bin', { length: 2, headers: { 'x-share-password': 'pw' } });
    expect(created.statusCode).toBe(201);
    expect((await patch(t, locationOf(created), { offset: 0, body: Buffer.from('ok') })).statusCode).toBe(204);
    const byToken = await tus(t, 'POST /api/public/tus/up/b.bin?token=tok', { headers: { 'upload-length': '0' } });
    expect(byToken.statusCode).toBe(201);
    expect(await inbox(t)).toEqual(['a.bin', 'b.bin', 'report.pdf']);
  });

  it('aborts with DELETE: nothing stays and the name is free again', async () => {
    const t = await withUploadLink();
    const location = locationOf(await create(t, 'gone.bin', { length: 10 }));
    await patch(t, location, { offset: 0, body: Buffer.from('12345') });
    expect((await tus(t, `DELETE ${location}` as `DELETE /${string}`)).statusCode).toBe(204);
    expect(await inbox(t)).toEqual(['report.pdf']);
    expect((await create(t, 'gone.bin', { length: 1 })).json()).toEqual({ name: 'gone.bin' });
  });

  it.each([
    { name: 'a path', url: '/api/public/tus/up/a%2Fb.bin', status: 400 },
    { name: 'dot dot', url: '/api/public/tus/up/..', status: 400 },
    { name: 'a hidden name', url: '/api/public/tus/up/.env', status: 400 },
    { name: 'a download link', url: '/api/public/tus/nope/a.bin', status: 404 },
  ])('refuses $name at creation ($status)', async ({ url, status }) => {
    const t = await withUploadLink();
    expect((await tus(t, `POST ${url}` as `POST /${string}`, { headers: { 'upload-length': '3' } })).statusCode).toBe(status);
    expect(await inbox(t)).toEqual(['report.pdf']);
  });

  it('refuses a malformed Upload-Length before anything else (400)', async () => {
    const t = await withUploadLink();
    expect((await tus(t, 'POST /api/public/tus/up/a.bin', { headers: { 'upload-length': '-1' } })).statusCode).toBe(400);
    expect((await tus(t, 'POST /api/public/tus/up/a.bin')).statusCode).toBe(400);
  });
});
