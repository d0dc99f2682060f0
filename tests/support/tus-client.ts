import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { buildTestApp, type TestApp } from './test-app';

/** The tus Content-Type of PATCH bodies. */
export const OCTET = 'application/offset+octet-stream';

type Headers = Record<string, string>;
type Method = 'POST' | 'HEAD' | 'GET' | 'PATCH' | 'DELETE' | 'OPTIONS';

/** Deterministic bytes of length `n` for upload tests. */
export function bytes(n: number, seed = 7): Buffer {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = (i * 31 + seed) & 0xff;
  return b;
}

/**
 * The app of the tus API tests: docs/old.txt and folder/keep.txt, and besides the admin the users
 * bob (create, modify, delete), reader (none of them) and creator (create only).
 */
export async function buildTusTestApp(): Promise<TestApp> {
  const t = await buildTestApp({ tree: { 'docs/old.txt': 'original', 'folder/keep.txt': 'k' } });
  await t.addUser({ username: 'bob', perm: { create: true, modify: true, delete: true } });
  await t.addUser({ username: 'reader', perm: { create: false, modify: false, delete: false } });
  await t.addUser({ username: 'creator', perm: { create: true, modify: false, delete: false } });
  return t;
}

/**
 * Requests to /api/tus of the test app `current()` returns (a getter: tests rebuild their app),
 * as the admin unless a user is named, and looks at the files of its root.
 */
export function tusTestClient(current: () => TestApp) {
  const tus = (method: Method, path: string, opts: { headers?: Headers; body?: Buffer | string; user?: string } = {}): Promise<LightMyRequestResponse> => {
    const t = current();
    const payload = opts.body === undefined ? {} : { payload: opts.body };
    return t.app.inject({ method, url: `/api/tus${path}`, headers: { 'x-auth': t.token(opts.user), ...opts.headers }, ...payload });
  };
  /** POST and PATCH as one user (default the admin). */
  const as = (user?: string) => ({
    create: (path: string, length: number | string, extra: Headers = {}) => tus('POST', path, { headers: { 'upload-length': String(length), ...extra }, user }),
    patch: (path: string, offset: number | string, body: Buffer | string) =>
      tus('PATCH', path, { headers: { 'content-type': OCTET, 'upload-offset': String(offset) }, body, user }),
  });
  /** Names in a folder of the root, temporary files included. */
  const namesIn = async (dir = ''): Promise<string[]> => (await readdir(join(current().root, dir))).sort();
  /** The filemgr temporary files in a folder of the root. */
  const temps = async (dir = ''): Promise<string[]> => (await namesIn(dir)).filter((n) => n.startsWith('.filemgr-tmp-'));
  return { tus, as, ...as(), namesIn, temps };
}
