import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { appsForEachTest } from '../../../tests/support/per-test';
import { call } from '../../../tests/support/resource-calls';

/**
 * Requests racing on one path (the traversal fuzz's concurrent phase): each answers 2xx or 4xx,
 * never 500, and none removes what another one made.
 */

const start = appsForEachTest();
const FILE = '/api/resources/%2e%2e%2fsecret.txt::$DATA';
const NAME = 'secret.txt::$DATA';

/** Resolves once a filemgr temporary file appears in `dir` (the upload's body is being written). */
async function tempFileIn(dir: string): Promise<void> {
  while (!(await readdir(dir)).some((n) => n.startsWith('.filemgr-tmp-'))) await new Promise((r) => setImmediate(r));
}

describe('requests racing on one path', () => {
  it('a new file whose path became a folder during the upload answers 400 and leaves the folder', async () => {
    const t = await start({ tree: { 'secret.txt': 'secret' } });
    const body = new PassThrough();
    const upload = call(t, { method: 'POST', url: `${FILE}?override=true`, payload: body, headers: { 'content-type': 'application/octet-stream' } });
    body.write('first half ');
    await tempFileIn(t.root);
    const folder = await call(t, { method: 'POST', url: `${FILE}/` });
    body.end('second half');
    const res = await upload;
    expect(folder.statusCode).toBe(200);
    expect(res.statusCode).toBe(400);
    expect((await stat(join(t.root, NAME))).isDirectory()).toBe(true);
    expect((await readdir(t.root)).sort()).toEqual(['secret.txt', NAME]);
  });

  it('creations, folder creations, reads and deletions of one path at once answer no 500', async () => {
    const t = await start({ tree: { 'secret.txt': 'secret', 'users/bob/b.txt': 'b', 'users/bobby/bobby-secret.txt': 'bobby' } });
    await t.addUser({ username: 'bob', scope: '/users/bob', perm: { create: true, modify: true, delete: true, rename: true, download: true } });
    const paths = [FILE, '/api/resources/..%255cbob/../bobby/bobby-secret.txt.'];
    const requests = [];
    for (let i = 0; i < 20; i++) {
      for (const as of ['admin', 'bob']) {
        for (const url of paths) {
          requests.push(call(t, { as, method: 'POST', url: `${url}?override=true`, payload: `body ${i}` }));
          requests.push(call(t, { as, method: 'POST', url: `${url}/` }));
          requests.push(call(t, { as, method: 'GET', url }));
          requests.push(call(t, { as, method: 'PUT', url, payload: `put ${i}` }));
          requests.push(call(t, { as, method: 'DELETE', url }));
          requests.push(call(t, { as, method: 'POST', url: url.replace('/api/resources/', '/api/tus/'), headers: { 'upload-length': '3', 'tus-resumable': '1.0.0' } }));
        }
      }
    }
    const statuses = (await Promise.all(requests)).map((r) => r.statusCode);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    // Nothing outside bob's scope was touched by his requests.
    expect(await readFile(join(t.root, 'users/bobby/bobby-secret.txt'), 'utf8')).toBe('bobby');
  });
});
