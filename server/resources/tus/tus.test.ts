import { mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { noAssets } from '../../lib/assets';
import { buildTestApp, type TestApp } from '../../../tests/support/test-app';

const OCTET = 'application/offset+octet-stream';

let t: TestApp;

function bytes(n: number, seed = 7): Buffer {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = (i * 31 + seed) & 0xff;
  return b;
}

type Headers = Record<string, string>;

function tus(method: 'POST' | 'HEAD' | 'GET' | 'PATCH' | 'DELETE' | 'OPTIONS', path: string, opts: { headers?: Headers; body?: Buffer | string; user?: string } = {}): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method,
    url: `/api/tus${path}`,
    headers: { 'x-auth': t.token(opts.user), ...opts.headers },
    ...(opts.body === undefined ? {} : { payload: opts.body }),
  });
}

/** POST and PATCH as one user (default the admin). */
function as(user?: string) {
  return {
    create: (path: string, length: number | string, extra: Headers = {}) => tus('POST', path, { headers: { 'upload-length': String(length), ...extra }, user }),
    patch: (path: string, offset: number | string, body: Buffer | string) =>
      tus('PATCH', path, { headers: { 'content-type': OCTET, 'upload-offset': String(offset) }, body, user }),
  };
}

const { create, patch } = as();

/** Names in a folder of the root, temporary files included. */
async function namesIn(dir = ''): Promise<string[]> {
  return (await readdir(join(t.root, dir))).sort();
}

const temps = async (dir = ''): Promise<string[]> => (await namesIn(dir)).filter((n) => n.startsWith('.filemgr-tmp-'));

beforeEach(async () => {
  t = await buildTestApp({ tree: { 'docs/old.txt': 'original', 'folder/keep.txt': 'k' } });
  await t.addUser({ username: 'bob', perm: { create: true, modify: true, delete: true } });
  await t.addUser({ username: 'reader', perm: { create: false, modify: false, delete: false } });
  await t.addUser({ username: 'creator', perm: { create: true, modify: false, delete: false } });
});

afterEach(async () => {
  await t.close();
});

describe('POST /api/tus{p}', () => {
  it('answers 201 with the Location of the upload and keeps the data in a hidden temporary file', async () => {
    const res = await create('/new%20file.bin?override=false', 10);
    expect(res.statusCode).toBe(201);
    expect(res.body).toBe('201 Created\n');
    expect(res.headers.location).toBe('/api/tus/new%20file.bin');
    expect(res.headers['tus-resumable']).toBe('1.0.0');
    expect(await namesIn()).not.toContain('new file.bin');
    expect(await temps()).toHaveLength(1);
  });

  it('puts the base URL in front of the Location', async () => {
    await t.close();
    t = await buildTestApp({ config: { baseURL: '/files-app' } });
    const res = await t.app.inject({ method: 'POST', url: '/files-app/api/tus/a.bin', headers: { 'x-auth': t.token(), 'upload-length': '3' } });
    expect(res.statusCode).toBe(201);
    expect(res.headers.location).toBe('/files-app/api/tus/a.bin');
  });

  it.each([
    ['missing', undefined, 'invalid upload length: missing Upload-Length header'],
    ['not a number', 'abc', 'invalid upload length: "abc" is not an integer'],
    ['a fraction', '1.5', 'invalid upload length: "1.5" is not an integer'],
    ['negative', '-1', 'invalid upload length: -1 is negative'],
  ])('answers 400 for an Upload-Length that is %s and creates nothing', async (_what, value, message) => {
    const res = await tus('POST', '/x.bin', { headers: value === undefined ? {} : { 'upload-length': value } });
    expect(res.statusCode).toBe(400);
    expect(res.body).toBe(`400 Bad Request (${message})\n`);
    expect(await namesIn()).toEqual(['docs', 'folder']);
  });

  it('answers 413 for a length no file can have', async () => {
    const res = await create('/x.bin', '1152921504606846976');
    expect(res.statusCode).toBe(413);
    expect(await namesIn()).toEqual(['docs', 'folder']);
  });

  it.each([
    ['an existing folder', '/folder', 'cannot upload to a directory folder'],
    ['a path with a trailing slash', '/newdir/', 'cannot upload to a directory newdir'],
    ['the root', '/', 'cannot upload to a directory /'],
  ])('answers 400 for an upload into %s', async (_what, path, message) => {
    const res = await create(`${path}?override=true`, 4);
    expect(res.statusCode).toBe(400);
    expect(res.body).toBe(`400 Bad Request (${message})\n`);
    expect(await namesIn('folder')).toEqual(['keep.txt']);
  });

  it('answers 409 when the target exists and override is not true', async () => {
    expect((await create('/docs/old.txt?override=false', 3)).statusCode).toBe(409);
    expect((await create('/docs/old.txt', 3)).statusCode).toBe(409);
    expect(await temps('docs')).toEqual([]);
  });

  it('answers 403 for an overwrite without the modify permission', async () => {
    expect((await as('creator').create('/docs/old.txt?override=true', 3)).statusCode).toBe(403);
    expect((await as('creator').create('/docs/new.txt', 3)).statusCode).toBe(201);
  });

  it('answers 403 without the create permission', async () => {
    expect((await as('reader').create('/x.bin', 3)).statusCode).toBe(403);
    expect(await namesIn()).toEqual(['docs', 'folder']);
  });

  it('creates missing parent folders', async () => {
    expect((await create('/a/b/c.bin', 2)).statusCode).toBe(201);
    expect((await patch('/a/b/c.bin', 0, 'hi')).statusCode).toBe(204);
    expect(await readFile(join(t.root, 'a/b/c.bin'), 'utf8')).toBe('hi');
  });

  it('completes a zero-length upload at once', async () => {
    const res = await create('/empty.txt', 0);
    expect(res.statusCode).toBe(201);
    expect((await stat(join(t.root, 'empty.txt'))).size).toBe(0);
    expect(await temps()).toEqual([]);
    expect((await tus('HEAD', '/empty.txt')).statusCode).toBe(404);
  });

  it('refuses a request for another protocol version with 412 and the version served', async () => {
    const res = await create('/x.bin', 3, { 'tus-resumable': '0.2.2' });
    expect(res.statusCode).toBe(412);
    expect(res.headers['tus-version']).toBe('1.0.0');
    expect(await namesIn()).toEqual(['docs', 'folder']);
    expect((await create('/x.bin', 3, { 'tus-resumable': '1.0.0' })).statusCode).toBe(201);
  });

  it('starts over when the same user creates the same upload again', async () => {
    await create('/re.bin', 10);
    await patch('/re.bin', 0, 'abcde');
    expect((await create('/re.bin', 4)).statusCode).toBe(201);
    expect(await temps()).toHaveLength(1);
    const head = await tus('HEAD', '/re.bin');
    expect([head.headers['upload-offset'], head.headers['upload-length']]).toEqual(['0', '4']);
  });
});

describe('OPTIONS /api/tus{p}', () => {
  it('announces the version and extensions', async () => {
    for (const path of ['', '/any/file.bin']) {
      const res = await tus('OPTIONS', path, { headers: { 'tus-resumable': '9.9.9' } });
      expect(res.statusCode).toBe(204);
      expect(res.headers['tus-version']).toBe('1.0.0');
      expect(res.headers['tus-extension']).toBe('creation,termination');
    }
  });
});

describe('HEAD and GET /api/tus{p}', () => {
  it.each(['HEAD', 'GET'] as const)('%s reports the offset and declared length, never cached', async (method) => {
    await create('/movie.bin', 65536);
    await patch('/movie.bin', 0, bytes(32768));
    const res = await tus(method, '/movie.bin');
    expect(res.statusCode).toBe(200);
    expect(res.headers['upload-offset']).toBe('32768');
    expect(res.headers['upload-length']).toBe('65536');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toBe('');
  });

  it('answers 404 when no upload is in progress, even for an existing file', async () => {
    expect((await tus('HEAD', '/docs/old.txt')).statusCode).toBe(404);
    expect((await tus('HEAD', '/nothing.bin')).statusCode).toBe(404);
  });

  it('answers 403 without the create permission', async () => {
    expect((await tus('HEAD', '/docs/old.txt', { user: 'reader' })).statusCode).toBe(403);
  });
});

describe('PATCH /api/tus{p}', () => {
  it('assembles a multi-chunk upload byte for byte (3 x 64 KiB + 1234)', async () => {
    const data = bytes(3 * 65536 + 1234);
    expect((await create('/movie.bin?override=false', data.length)).statusCode).toBe(201);
    for (let offset = 0; offset < data.length; offset += 65536) {
      const chunk = data.subarray(offset, offset + 65536);
      const res = await patch('/movie.bin', offset, chunk);
      expect(res.statusCode).toBe(204);
      expect(res.headers['upload-offset']).toBe(String(offset + chunk.length));
      if (offset + chunk.length < data.length) expect(await namesIn()).not.toContain('movie.bin');
    }
    expect((await readFile(join(t.root, 'movie.bin'))).equals(data)).toBe(true);
    expect(await temps()).toEqual([]);
  });

  it('answers 409 for a stale offset and keeps the bytes received', async () => {
    const data = bytes(2048);
    await create('/s.bin', 2048);
    expect((await patch('/s.bin', 0, data.subarray(0, 1024))).statusCode).toBe(204);
    expect((await patch('/s.bin', 0, data.subarray(0, 1024))).statusCode).toBe(409);
    expect((await patch('/s.bin', 1024, data.subarray(1024))).statusCode).toBe(204);
    expect((await readFile(join(t.root, 's.bin'))).equals(data)).toBe(true);
  });

  it('answers 413 for a body longer than declared, keeps nothing of it, and accepts the right one', async () => {
    await create('/file.txt', 5);
    const res = await patch('/file.txt', 0, bytes(5000));
    expect(res.statusCode).toBe(413);
    const [temp] = await temps();
    expect((await stat(join(t.root, temp!))).size).toBe(0);
    expect(await namesIn()).not.toContain('file.txt');
    expect((await patch('/file.txt', 0, 'hello')).statusCode).toBe(204);
    expect(await readFile(join(t.root, 'file.txt'), 'utf8')).toBe('hello');
  });

  it('cuts an overlong chunk sent without Content-Length back to the offset', async () => {
    await create('/chunked.txt', 6);
    await patch('/chunked.txt', 0, 'abc');
    const { Readable } = await import('node:stream');
    const res = await t.app.inject({
      method: 'PATCH',
      url: '/api/tus/chunked.txt',
      headers: { 'x-auth': t.token(), 'content-type': OCTET, 'upload-offset': '3', 'transfer-encoding': 'chunked' },
      payload: Readable.from([Buffer.from('de'), Buffer.from('fghij')]),
    });
    expect(res.statusCode).toBe(413);
    const head = await tus('HEAD', '/chunked.txt');
    expect(head.headers['upload-offset']).toBe('3');
  });

  it('answers 400 for an offset past the declared length', async () => {
    await create('/p.bin', 4);
    const res = await patch('/p.bin', 10, 'x');
    expect(res.statusCode).toBe(400);
    expect(res.body).toBe('400 Bad Request (upload offset 10 exceeds declared length 4)\n');
  });

  it.each([['abc'], ['-1'], ['1e3'], ['']])('answers 400 for the Upload-Offset %j', async (offset) => {
    await create('/o.bin', 4);
    const res = await patch('/o.bin', offset, 'x');
    expect(res.statusCode).toBe(400);
    expect(res.body).toBe('400 Bad Request (invalid upload offset)\n');
  });

  it.each([
    ['missing', undefined],
    ['application/octet-stream', 'application/octet-stream'],
    ['with a parameter', `${OCTET}; charset=utf-8`],
  ])('answers 415 for a Content-Type %s', async (_what, type) => {
    await create('/c.bin', 4);
    const headers: Headers = { 'upload-offset': '0', ...(type === undefined ? {} : { 'content-type': type }) };
    const res = await tus('PATCH', '/c.bin', { headers, body: 'abcd' });
    expect(res.statusCode).toBe(415);
  });

  it('answers 404 when no upload is in progress', async () => {
    expect((await patch('/docs/old.txt', 0, 'x')).statusCode).toBe(404);
    expect(await readFile(join(t.root, 'docs/old.txt'), 'utf8')).toBe('original');
  });

  it('answers 403 without the create permission', async () => {
    await create('/q.bin', 1);
    expect((await as('reader').patch('/q.bin', 0, 'x')).statusCode).toBe(403);
  });
});

describe('overwriting', () => {
  it('keeps the original until the last byte arrives, then replaces it keeping its mode', async () => {
    const { chmod } = await import('node:fs/promises');
    await chmod(join(t.root, 'docs/old.txt'), 0o604);
    expect((await create('/docs/old.txt?override=true', 8)).statusCode).toBe(201);
    await patch('/docs/old.txt', 0, 'repl');
    expect(await readFile(join(t.root, 'docs/old.txt'), 'utf8')).toBe('original');
    await patch('/docs/old.txt', 4, 'aced');
    expect(await readFile(join(t.root, 'docs/old.txt'), 'utf8')).toBe('replaced');
    expect((await stat(join(t.root, 'docs/old.txt'))).mode & 0o777).toBe(0o604);
    expect(await temps('docs')).toEqual([]);
  });

  it('keeps the original when an overwrite is aborted', async () => {
    await create('/docs/old.txt?override=true', 8);
    await patch('/docs/old.txt', 0, 'repl');
    const res = await tus('DELETE', '/docs/old.txt');
    expect(res.statusCode).toBe(204);
    expect(await readFile(join(t.root, 'docs/old.txt'), 'utf8')).toBe('original');
    expect(await temps('docs')).toEqual([]);
    expect((await tus('HEAD', '/docs/old.txt')).statusCode).toBe(404);
  });
});

describe('DELETE /api/tus{p}', () => {
  it('removes an unfinished new upload', async () => {
    await create('/gone.bin', 10);
    expect((await tus('DELETE', '/gone.bin')).statusCode).toBe(204);
    expect(await namesIn()).toEqual(['docs', 'folder']);
    expect((await patch('/gone.bin', 0, 'x')).statusCode).toBe(404);
  });

  it.each([
    ['the root', '/', 'admin'],
    ['a user without the delete permission', '/d.bin', 'creator'],
  ])('answers 403 for %s', async (_what, path, user) => {
    await as('creator').create('/d.bin', 3);
    expect((await tus('DELETE', path, { user })).statusCode).toBe(403);
    expect(await temps()).toHaveLength(1);
  });

  it('answers 404 when no upload is in progress', async () => {
    expect((await tus('DELETE', '/docs/old.txt')).statusCode).toBe(404);
    expect(await readFile(join(t.root, 'docs/old.txt'), 'utf8')).toBe('original');
  });
});

describe('uploads belong to the user who created them', () => {
  it.each([
    ['HEAD', () => tus('HEAD', '/mine.bin', { user: 'bob' })],
    ['PATCH', () => as('bob').patch('/mine.bin', 0, 'abc')],
    ['DELETE', () => tus('DELETE', '/mine.bin', { user: 'bob' })],
  ])("answers 404 to another user's %s", async (_method, call) => {
    await create('/mine.bin', 3);
    expect((await call()).statusCode).toBe(404);
    expect(await temps()).toHaveLength(1);
    expect((await patch('/mine.bin', 0, 'abc')).statusCode).toBe(204);
  });
});

describe('symlinks and hidden files', () => {
  let outside: string;
  beforeEach(async () => {
    outside = await mkdtemp(join(tmpdir(), 'filemgr-outside-'));
    const { symlink } = await import('node:fs/promises');
    await symlink(outside, join(t.root, 'escape_link'));
  });
  afterEach(async () => {
    await rm(outside, { recursive: true, force: true });
  });

  it('answers 403 to a POST and a PATCH through a link leaving the scope, creating nothing outside', async () => {
    expect((await create('/escape_link/injected.txt', 20)).statusCode).toBe(403);
    expect((await patch('/escape_link/injected.txt', 0, 'x')).statusCode).toBe(403);
    expect(await readdir(outside)).toEqual([]);
  });

  it('refuses to address a temporary file by its name', async () => {
    await create('/h.bin', 3);
    const [temp] = await temps();
    expect((await patch(`/${temp!}`, 0, 'abc')).statusCode).toBe(403);
    expect((await tus('HEAD', `/${temp!}`)).statusCode).toBe(403);
  });
});

describe('the upload hooks', () => {
  it('run once, when the last byte arrives, with the real path of the file', async () => {
    await t.close();
    const marker = join(tmpdir(), `filemgr-hook-${process.pid}-${Date.now()}`);
    t = await buildTestApp({
      config: { enableExec: true },
      settings: (s) => {
        s.shell = ['sh', '-c'];
        s.commands = { after_upload: [`printf '%s\\n' "$TRIGGER $FILE" >> ${marker}`], before_upload: [`printf 'before\\n' >> ${marker}`] };
      },
    });
    await create('/h.txt', 4);
    await patch('/h.txt', 0, 'ab');
    await expect(readFile(marker, 'utf8')).rejects.toThrow();
    await patch('/h.txt', 2, 'cd');
    expect(await readFile(marker, 'utf8')).toBe(`before\nafter_upload ${join(t.root, 'h.txt')}\n`);
    await rm(marker, { force: true });
  });

  it('keep a completed upload when a hook fails', async () => {
    await t.close();
    t = await buildTestApp({ config: { enableExec: true }, settings: (s) => (s.commands = { after_upload: ['false'] }) });
    await create('/f.txt', 2);
    expect((await patch('/f.txt', 0, 'ok')).statusCode).toBe(204);
    expect(await readFile(join(t.root, 'f.txt'), 'utf8')).toBe('ok');
  });
});

describe('a restarted server', () => {
  afterEach(async () => {
    await t.app.close();
  });

  async function restart(): Promise<void> {
    await t.app.close();
    t.app = await buildApp({ store: t.store, config: t.config, assets: noAssets(), logger: false });
  }

  it('resumes an upload from the temporary file: its size is the offset, its name the length', async () => {
    const data = bytes(3000);
    await create('/r.bin', 3000);
    await patch('/r.bin', 0, data.subarray(0, 1000));
    await restart();
    const head = await tus('HEAD', '/r.bin');
    expect([head.statusCode, head.headers['upload-offset'], head.headers['upload-length']]).toEqual([200, '1000', '3000']);
    expect((await patch('/r.bin', 1000, data.subarray(1000))).statusCode).toBe(204);
    expect((await readFile(join(t.root, 'r.bin'))).equals(data)).toBe(true);
  });

  it('still keeps uploads apart by user', async () => {
    await create('/r.bin', 3);
    await restart();
    expect((await tus('HEAD', '/r.bin', { user: 'bob' })).statusCode).toBe(404);
    expect((await tus('HEAD', '/r.bin')).statusCode).toBe(200);
  });

  it('finishes an upload whose bytes were all written before the restart', async () => {
    await create('/full.bin', 4);
    const [temp] = await temps();
    await writeFile(join(t.root, temp!), 'full');
    await restart();
    const head = await tus('HEAD', '/full.bin');
    expect(head.headers['upload-offset']).toBe('4');
    expect(await readFile(join(t.root, 'full.bin'), 'utf8')).toBe('full');
    expect(await temps()).toEqual([]);
  });

  it('removes an upload left silent longer than the TTL when it is asked for', async () => {
    await create('/old.bin', 10);
    const [temp] = await temps();
    const old = new Date(Date.now() - 4 * 60 * 1000);
    await utimes(join(t.root, temp!), old, old);
    await restart();
    expect((await tus('HEAD', '/old.bin')).statusCode).toBe(404);
    expect(await temps()).toEqual([]);
  });

  it('sweeps abandoned temporary files of a folder when a new upload starts there', async () => {
    await create('/folder/a.bin', 10);
    const [temp] = await temps('folder');
    const old = new Date(Date.now() - 4 * 60 * 1000);
    await utimes(join(t.root, 'folder', temp!), old, old);
    await restart();
    await create('/folder/b.bin', 10);
    const left = await temps('folder');
    expect(left).toHaveLength(1);
    expect(left[0]).not.toBe(temp);
  });
});
