import { describe, expect, it } from 'vitest';
import { appsForEachTest } from '../../../tests/support/per-test';
import type { TestApp } from '../../../tests/support/test-app';
import type { ShareRecord } from '../../state/schema';

const start = appsForEachTest();
const CONTENT = 'the shared file, 32 bytes long!!';

/** 'owner' shares /file.txt as 'h' and /docs/ as 'd', with the given fields. */
async function withLimit(link: Partial<ShareRecord>): Promise<TestApp> {
  const t = await start({ tree: { 'file.txt': CONTENT, 'docs/a.txt': 'a', 'docs/b.txt': 'b' } });
  const owner = await t.addUser({ username: 'owner', perm: { share: true, download: true } });
  await t.store.update((db) => {
    db.shares.push({ hash: 'h', path: '/file.txt', userID: owner.id, expire: 0, ...link });
    db.shares.push({ hash: 'd', path: '/docs/', userID: owner.id, expire: 0, ...link });
  });
  return t;
}

const get = (t: TestApp, url: string, o: { range?: string; address?: string; method?: 'GET' | 'HEAD' } = {}) =>
  t.app.inject({ method: o.method ?? 'GET', url, headers: o.range === undefined ? {} : { range: o.range }, remoteAddress: o.address ?? '203.0.113.5' });
const downloads = (t: TestApp, hash = 'h'): number | undefined => t.store.data().shares.find((s) => s.hash === hash)?.downloads;

describe('download limits (beyond.md §2)', () => {
  it('counts every 200 and answers 410 once the limit is reached, the share JSON included', async () => {
    const t = await withLimit({ maxDownloads: 2, downloads: 0 });
    expect((await get(t, '/api/public/share/h')).statusCode).toBe(200);
    expect((await get(t, '/api/public/dl/h')).body).toBe(CONTENT);
    expect((await get(t, '/api/public/dl/h?inline=true', { address: '198.51.100.2' })).statusCode).toBe(200);
    expect(downloads(t)).toBe(2);
    const gone = await get(t, '/api/public/dl/h');
    expect(gone.statusCode).toBe(410);
    expect(gone.body).toBe('410 Gone\n');
    expect((await get(t, '/api/public/share/h')).statusCode).toBe(410);
    expect(downloads(t)).toBe(2);
  });

  it('does not count a 206 that continues the same file for the same client, but counts a fresh client', async () => {
    const t = await withLimit({ maxDownloads: 2, downloads: 0 });
    expect((await get(t, '/api/public/dl/h', { range: 'bytes=0-9' })).statusCode).toBe(206);
    const rest = await get(t, '/api/public/dl/h', { range: 'bytes=10-' });
    expect(rest.statusCode).toBe(206);
    expect(rest.body).toBe(CONTENT.slice(10));
    expect(downloads(t)).toBe(1);
    expect((await get(t, '/api/public/dl/h', { range: 'bytes=10-', address: '198.51.100.3' })).statusCode).toBe(206);
    expect(downloads(t)).toBe(2);
    expect((await get(t, '/api/public/dl/h', { range: 'bytes=20-', address: '198.51.100.4' })).statusCode).toBe(410);
  });

  it('counts neither HEAD nor a refused request', async () => {
    const t = await withLimit({ maxDownloads: 1, downloads: 0 });
    expect((await get(t, '/api/public/dl/h', { method: 'HEAD' })).statusCode).toBe(200);
    expect((await get(t, '/api/public/dl/d/missing.txt')).statusCode).toBe(404);
    expect(downloads(t)).toBe(0);
  });

  it('gives exactly one file when 20 ask at once for the last download', async () => {
    const t = await withLimit({ maxDownloads: 5, downloads: 4 });
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => get(t, '/api/public/dl/h', { address: `198.51.100.${i + 1}` })));
    const served = answers.filter((r) => r.statusCode === 200);
    expect(served).toHaveLength(1);
    expect(served[0]?.body).toBe(CONTENT);
    expect(answers.filter((r) => r.statusCode === 410)).toHaveLength(19);
    expect(downloads(t)).toBe(5);
  });

  it('counts a folder archive and each file of a folder link as one download each', async () => {
    const t = await withLimit({ maxDownloads: 2, downloads: 0 });
    expect((await get(t, '/api/public/dl/d/?algo=zip')).statusCode).toBe(200);
    expect((await get(t, '/api/public/dl/d/a.txt')).body).toBe('a');
    expect(downloads(t, 'd')).toBe(2);
    expect((await get(t, '/api/public/dl/d/b.txt')).statusCode).toBe(410);
    expect((await get(t, '/api/public/share/d/')).statusCode).toBe(410);
  });

  it('counts the downloads of an unlimited link without ever refusing, in the share record soon after', async () => {
    const t = await withLimit({});
    for (let i = 0; i < 3; i++) expect((await get(t, '/api/public/dl/h')).statusCode).toBe(200);
    // Written together a moment later (no state write per download of an unlimited link).
    await expect.poll(() => downloads(t), { timeout: 5000 }).toBe(3);
    const list = await t.app.inject({ method: 'GET', url: '/api/shares', headers: { 'x-auth': t.token() } });
    expect(list.json()).toEqual(expect.arrayContaining([expect.objectContaining({ hash: 'h', downloads: 3, maxDownloads: 0 })]));
  });
});
