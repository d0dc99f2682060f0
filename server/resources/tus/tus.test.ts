import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../tests/support/test-app';
import { buildTusTestApp, bytes, OCTET, tusTestClient } from '../../../tests/support/tus-client';

let t: TestApp;
const { tus, as, create, patch, namesIn, temps } = tusTestClient(() => t);

type Headers = Record<string, string>;

beforeEach(async () => {
  t = await buildTusTestApp();
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

