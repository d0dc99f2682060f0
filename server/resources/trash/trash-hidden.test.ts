import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TrashItem } from '../../contract/trash';
import { appsForEachTest } from '../../../tests/support/per-test';
import { call } from '../../../tests/support/resource-calls';
import type { TestApp } from '../../../tests/support/test-app';

const start = appsForEachTest();
const SECRET = 'zz-secret-name.txt';

/** An admin (scope '/') whose trash holds SECRET; the trash folder sits in its scope's root. */
async function withTrashedSecret(): Promise<{ t: TestApp; inner: string }> {
  const t = await start({ tree: { [SECRET]: 'secret bytes', 'docs/keep.txt': 'k' } });
  expect((await call(t, { method: 'DELETE', url: `/api/resources/${SECRET}` })).statusCode).toBe(204);
  const [item] = (await call(t, { method: 'GET', url: '/api/trash' })).json<TrashItem[]>();
  return { t, inner: `.filemgr-trash/1/${item?.id ?? ''}/${SECRET}` };
}

describe('the trash folder is invisible', () => {
  it.each([
    ['the listing of the root', '/api/resources/'],
    ['the recursive listing', '/api/resources/recursive/'],
    ['a search', '/api/search/?query=secret'],
    ['a search of everything', '/api/search/?query=zz'],
    ['a zip of the root', '/api/raw/?algo=zip'],
    ['a tar of the root', '/api/raw/?algo=tar'],
  ])('in %s', async (_label, url) => {
    const { t } = await withTrashedSecret();
    const res = await call(t, { method: 'GET', url });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('filemgr-trash');
    expect(res.body).not.toContain('zz-secret');
  });

  it.each([
    ['resources', 'GET', '/api/resources/'],
    ['raw', 'GET', '/api/raw/'],
    ['usage', 'GET', '/api/usage/'],
    ['preview', 'GET', '/api/preview/thumb/'],
  ])('to %s requests for it and below it', async (_label, method, prefix) => {
    const { t, inner } = await withTrashedSecret();
    for (const path of ['.filemgr-trash', inner, '%2Efilemgr-trash', `docs/..%2F${inner}`, `docs/../${inner}`, `docs/%2E%2E/${inner}`]) {
      const res = await call(t, { method: method, url: `${prefix}${path}` });
      expect([403, 404], `${prefix}${path}`).toContain(res.statusCode);
      expect(res.body).not.toContain('secret bytes');
    }
  });

  it.each([
    ['a share', 'POST', '/api/share/'],
    ['an upload', 'POST', '/api/resources/'],
    ['a tus upload', 'POST', '/api/tus/'],
    ['a save', 'PUT', '/api/resources/'],
    ['a delete', 'DELETE', '/api/resources/'],
  ])('to %s aimed at it', async (_label, method, prefix) => {
    const { t, inner } = await withTrashedSecret();
    for (const path of ['.filemgr-trash', inner, '.filemgr-trash/new.txt']) {
      const res = await call(t, { method: method, url: `${prefix}${path}`, headers: { 'upload-length': '1', 'tus-resumable': '1.0.0' }, payload: method === 'DELETE' ? undefined : prefix === '/api/share/' ? '{}' : 'x' });
      expect([403, 404], `${method} ${prefix}${path}`).toContain(res.statusCode);
    }
    expect(t.store.data().shares).toEqual([]);
  });

  it('to a copy or move into it, and through a symlink to it', async () => {
    const { t, inner } = await withTrashedSecret();
    const patch = (src: string, dst: string) => call(t, { method: 'PATCH', url: `/api/resources/${src}?action=rename&destination=${encodeURIComponent(dst)}` });
    expect([403, 404]).toContain((await patch('docs/keep.txt', '/.filemgr-trash/keep.txt')).statusCode);
    expect([403, 404]).toContain((await patch(inner, '/out.txt')).statusCode);
    await symlink(join(t.root, '.filemgr-trash'), join(t.root, 'link'));
    for (const url of ['/api/resources/link', `/api/raw/link/1`, '/api/resources/']) {
      const res = await call(t, { method: 'GET', url });
      expect(res.body).not.toContain('zz-secret');
    }
    expect([403, 404]).toContain((await call(t, { method: 'GET', url: '/api/resources/link' })).statusCode);
  });
});
