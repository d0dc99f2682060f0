import { appsForEachTest } from '../../../tests/support/per-test';
import { statfs } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { call } from '../../../tests/support/resource-calls';

const start = appsForEachTest();

describe('GET /api/usage', () => {
  it('answers the total and used bytes of the volume holding a directory', async () => {
    const t = await start({ tree: { 'd/f.txt': 'x' } });
    const res = await call(t, { method: 'GET', url: '/api/usage/d' });
    expect(res.statusCode).toBe(200);
    const body = JSON.parse(res.body) as { total: number; used: number };
    const s = await statfs(t.root);
    expect(body.total).toBe(s.blocks * s.bsize);
    expect(body.used).toBeGreaterThan(0);
    expect(body.used).toBeLessThanOrEqual(body.total);
  });

  it('answers zeros for a file', async () => {
    const t = await start({ tree: { 'f.txt': 'x' } });
    expect(JSON.parse((await call(t, { method: 'GET', url: '/api/usage/f.txt' })).body)).toEqual({ total: 0, used: 0 });
  });

  it.each([
    ['a missing path', '/api/usage/nope', 404],
    ['a denied path', '/api/usage/secret', 403],
    ['an escaping symlink', '/api/usage/out', 403],
  ])('answers %s with %i', async (_label, url, status) => {
    const t = await start({ tree: { 'secret/': null, out: { symlink: '/' } }, settings: (s) => { s.rules = [{ regex: false, allow: false, path: '/secret', regexp: null }]; } });
    expect((await call(t, { method: 'GET', url })).statusCode).toBe(status);
  });

  it('redirects the bare prefix', async () => {
    const t = await start();
    expect((await call(t, { method: 'GET', url: '/api/usage' })).headers.location).toBe('/api/usage/');
  });
});
