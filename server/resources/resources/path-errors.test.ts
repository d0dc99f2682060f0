import { readdir, readFile, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appsForEachTest } from '../../../tests/support/per-test';
import { call } from '../../../tests/support/resource-calls';

/**
 * api.md §14: filesystem errors the request caused (ENOTDIR, EISDIR, ENAMETOOLONG, ELOOP) answer
 * 400, 403, 404 or 409, never 500, and leave the disk as it was.
 */

const start = appsForEachTest();
const LONG = 'n'.repeat(300);
const TREE = {
  'readme.txt': 'readme',
  'a.txt': 'a',
  'pub/readme.txt': 'pub readme',
  'dir/inner.txt': 'inner',
  'loop/a': { symlink: 'b' },
  'loop/b': { symlink: 'a' },
};

/** Every entry below `dir` with its content (files), '/' (directories) or '-> target' (links). */
async function snapshot(dir: string, prefix = ''): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const rel = `${prefix}/${e.name}`;
    const abs = join(dir, e.name);
    if (e.isSymbolicLink()) out[rel] = `-> ${await readlink(abs)}`;
    else if (e.isDirectory()) Object.assign(out, { [rel]: '/' }, await snapshot(abs, rel));
    else out[rel] = await readFile(abs, 'utf8');
  }
  return out;
}

type Case = [label: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH', url: string, expected: number, headers?: Record<string, string>];

const JSON_BODY = { 'content-type': 'application/json' };
const TUS = { 'upload-length': '3', 'tus-resumable': '1.0.0' };

const cases: Case[] = [
  ['GET through a file', 'GET', '/api/resources/readme.txt/x', 404],
  ['GET a symlink loop', 'GET', '/api/resources/loop/a', 403],
  ['GET a long name', 'GET', `/api/resources/${LONG}`, 400],
  ['POST a file through a file', 'POST', '/api/resources/readme.txt/x', 404],
  ['POST a folder through a file', 'POST', '/api/resources/readme.txt/dir/', 404],
  ['POST a file below a symlink loop', 'POST', '/api/resources/loop/a/x', 403],
  ['POST a long name', 'POST', `/api/resources/${LONG}`, 400],
  ['POST a long folder name', 'POST', `/api/resources/${LONG}/`, 400],
  ['PUT through a file', 'PUT', '/api/resources/readme.txt/x', 404],
  ['PUT onto a folder without a slash', 'PUT', '/api/resources/dir', 400],
  ['PUT a long name', 'PUT', `/api/resources/${LONG}`, 400],
  ['DELETE through a file', 'DELETE', '/api/resources/readme.txt/x', 404],
  ['DELETE a long name', 'DELETE', `/api/resources/${LONG}`, 400],
  ['rename onto a path through a file', 'PATCH', '/api/resources/a.txt?action=rename&destination=/pub/readme.txt/x', 404],
  ['rename onto a path through a symlink loop', 'PATCH', '/api/resources/a.txt?action=rename&destination=/loop/a/x', 403],
  ['rename onto a long name', 'PATCH', `/api/resources/a.txt?action=rename&destination=/${LONG}`, 400],
  ['rename a path through a file', 'PATCH', '/api/resources/readme.txt/x?action=rename&destination=/b.txt', 404],
  ['copy onto a path through a file', 'PATCH', '/api/resources/a.txt?action=copy&destination=/pub/readme.txt/x', 404],
  ['copy a folder onto a path through a file', 'PATCH', '/api/resources/dir?action=copy&destination=/readme.txt/dir', 404],
  ['copy onto a long name', 'PATCH', `/api/resources/a.txt?action=copy&destination=/${LONG}`, 400],
  ['tus creation through a file', 'POST', '/api/tus/readme.txt/x', 404, TUS],
  ['tus creation of a long name', 'POST', `/api/tus/${LONG}`, 400, TUS],
  ['tus creation onto a folder', 'POST', '/api/tus/dir', 400, TUS],
  ['share creation through a file', 'POST', '/api/share/readme.txt/x', 404, JSON_BODY],
  ['share creation of a symlink loop', 'POST', '/api/share/loop/a', 403, JSON_BODY],
  ['share creation of a long name', 'POST', `/api/share/${LONG}`, 400, JSON_BODY],
  ['search below a file', 'GET', '/api/search/readme.txt/x?query=a', 404],
  ['search in a symlink loop', 'GET', '/api/search/loop/a?query=a', 403],
  ['usage below a file', 'GET', '/api/usage/readme.txt/x', 404],
  ['usage of a long name', 'GET', `/api/usage/${LONG}`, 400],
  ['raw download through a file', 'GET', '/api/raw/readme.txt/x', 404],
  ['preview through a file', 'GET', '/api/preview/thumb/readme.txt/x', 404],
  ['subtitle through a file', 'GET', '/api/subtitle/readme.txt/x', 404],
];

function bodyFor(method: string, headers?: Record<string, string>): string | undefined {
  if (headers === JSON_BODY) return '{}';
  return method === 'PUT' || method === 'POST' ? 'xyz' : undefined;
}

describe('filesystem errors the request caused', () => {
  const rows = cases.map(([label, method, url, expected, headers]) => ({ label, method, url, expected, headers }));
  it.each(rows)('$label ($method $url) answers $expected, not 500, and changes nothing', async ({ method, url, expected, headers }) => {
    const t = await start({ tree: TREE });
    const before = await snapshot(t.root);
    const res = await call(t, { method, url, payload: bodyFor(method, headers), headers });
    expect(res.statusCode).not.toBe(500);
    expect(res.statusCode).toBe(expected);
    expect(await snapshot(t.root)).toEqual(before);
  });
});
