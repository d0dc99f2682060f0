import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appsForEachTest, dirsRemovedAfterEachTest } from '../../../tests/support/per-test';
import { buildTestApp, type TestApp } from '../../../tests/support/test-app';
import { makeTree } from '../../../tests/support/tree';
import { ROUTE_CSP } from '../../plugins/security-headers';

const start = appsForEachTest();
const dirs = dirsRemovedAfterEachTest();

const get = (t: TestApp, url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers: { 'x-auth': t.token(), ...headers } });
const getAs = (t: TestApp, as: string, url: string) => t.app.inject({ method: 'GET', url, headers: { 'x-auth': t.token(as) } });

const TEXT = 'Hello, range world!\n';

describe('GET /api/raw: Content-Disposition (raw_test)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ tree: { 'document.pdf': '%PDF-1.4\n', '日本語.txt': 'ja', 'my file.txt': 'space' } });
  });
  afterAll(() => t.close());

  it.each([
    ['document.pdf', 'document.pdf', 'application/pdf'],
    ['日本語.txt', '%E6%97%A5%E6%9C%AC%E8%AA%9E.txt', 'text/plain; charset=utf-8'],
    ['my file.txt', 'my%20file.txt', 'text/plain; charset=utf-8'],
  ])('serves %j inline as %j with its own type', async (name, escaped, type) => {
    const res = await get(t, `/api/raw/${encodeURIComponent(name)}?inline=true`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe(`inline; filename*=utf-8''${escaped}`);
    expect(res.headers['content-type']).toBe(type);
  });

  it.each([
    ['document.pdf', 'document.pdf'],
    ['日本語.txt', '%E6%97%A5%E6%9C%AC%E8%AA%9E.txt'],
    ['my file.txt', 'my%20file.txt'],
  ])('serves %j as an attachment named %j, always application/octet-stream', async (name, escaped) => {
    const res = await get(t, `/api/raw/${encodeURIComponent(name)}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe(`attachment; filename*=utf-8''${escaped}`);
    expect(res.headers['content-type']).toBe('application/octet-stream');
  });
});

describe('GET /api/raw: a file', () => {
  let t: TestApp;
  let etag: string;
  let lastModified: string;
  beforeAll(async () => {
    t = await buildTestApp({ tree: { 'notes.txt': TEXT, 'page.html': '<script>alert(1)</script>', 'empty.bin': '', 'blob.unknownext': Buffer.from([0, 1, 2, 3]) } });
    const res = await get(t, '/api/raw/notes.txt');
    etag = String(res.headers.etag);
    lastModified = String(res.headers['last-modified']);
  });
  afterAll(() => t.close());

  it('sends the bytes with the security headers of api.md §3.11', async () => {
    const res = await get(t, '/api/raw/notes.txt');
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(TEXT);
    expect(res.headers['content-length']).toBe(String(TEXT.length));
    expect(res.headers['content-security-policy']).toEqual([ROUTE_CSP, "script-src 'none';"]);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('private');
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.headers.etag).toMatch(/^"[0-9a-f]+"$/);
    expect(new Date(lastModified).getTime()).toBeGreaterThan(0);
  });

  it('sandboxes a document served inline so its scripts never run in the app origin', async () => {
    const res = await get(t, '/api/raw/page.html?inline=true');
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toEqual([ROUTE_CSP, "script-src 'none';", 'sandbox']);
  });

  it('sniffs the type of an inline file whose extension says nothing', async () => {
    const res = await get(t, '/api/raw/blob.unknownext?inline=true');
    expect(res.headers['content-type']).toBe('application/octet-stream');
  });

  it('serves an empty file with Content-Length 0', async () => {
    const res = await get(t, '/api/raw/empty.bin', { range: 'bytes=0-10' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-length']).toBe('0');
    expect(res.body).toBe('');
  });

  it.each([
    ['bytes=0-4', 'bytes 0-4/20', 'Hello'],
    ['bytes=7-', 'bytes 7-19/20', 'range world!\n'],
    ['bytes=-6', 'bytes 14-19/20', 'orld!\n'],
    ['bytes=15-1000', 'bytes 15-19/20', 'rld!\n'],
  ])('answers Range %j with 206 and Content-Range %j', async (range, contentRange, body) => {
    const res = await get(t, '/api/raw/notes.txt', { range });
    expect(res.statusCode).toBe(206);
    expect(res.headers['content-range']).toBe(contentRange);
    expect(res.headers['content-length']).toBe(String(body.length));
    expect(res.body).toBe(body);
  });

  it('answers several ranges with a multipart/byteranges body of exactly Content-Length bytes', async () => {
    const res = await get(t, '/api/raw/notes.txt', { range: 'bytes=0-4,7-11' });
    expect(res.statusCode).toBe(206);
    const match = /^multipart\/byteranges; boundary=([0-9a-f]+)$/.exec(String(res.headers['content-type']));
    expect(match).not.toBeNull();
    const boundary = match![1]!;
    expect(res.rawPayload.length).toBe(Number(res.headers['content-length']));
    expect(res.body).toBe(
      `--${boundary}\r\nContent-Range: bytes 0-4/20\r\nContent-Type: application/octet-stream\r\n\r\nHello` +
        `\r\n--${boundary}\r\nContent-Range: bytes 7-11/20\r\nContent-Type: application/octet-stream\r\n\r\nrange` +
        `\r\n--${boundary}--\r\n`,
    );
  });

  it('answers 416 with the size when no range overlaps the file', async () => {
    const res = await get(t, '/api/raw/notes.txt', { range: 'bytes=100-200' });
    expect(res.statusCode).toBe(416);
    expect(res.headers['content-range']).toBe('bytes */20');
    expect(res.body).toBe('416 Range Not Satisfiable\n');
  });

  it('answers 416 to a malformed Range', async () => {
    const res = await get(t, '/api/raw/notes.txt', { range: 'bytes=5-2' });
    expect(res.statusCode).toBe(416);
  });

  it.each([
    ['If-None-Match with the current ETag', () => ({ 'if-none-match': etag })],
    ['If-Modified-Since with the Last-Modified date', () => ({ 'if-modified-since': lastModified })],
  ])('answers 304 without a body to %s', async (_name, headers) => {
    const res = await get(t, '/api/raw/notes.txt', headers());
    expect(res.statusCode).toBe(304);
    expect(res.body).toBe('');
    expect(res.headers.etag).toBe(etag);
    expect(res.headers['content-type']).toBeUndefined();
  });

  it('serves the file again when If-None-Match names an older version', async () => {
    const res = await get(t, '/api/raw/notes.txt', { 'if-none-match': '"0"' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(TEXT);
  });

  it('honours Range under an If-Range that matches, and sends the whole file when it does not', async () => {
    const partial = await get(t, '/api/raw/notes.txt', { range: 'bytes=0-4', 'if-range': etag });
    expect(partial.statusCode).toBe(206);
    const whole = await get(t, '/api/raw/notes.txt', { range: 'bytes=0-4', 'if-range': '"stale"' });
    expect(whole.statusCode).toBe(200);
    expect(whole.body).toBe(TEXT);
  });

  it('answers 412 when If-Match names another version', async () => {
    const res = await get(t, '/api/raw/notes.txt', { 'if-match': '"other"' });
    expect(res.statusCode).toBe(412);
    expect(res.body).toBe('412 Precondition Failed\n');
  });

  it('answers HEAD with the headers and no body', async () => {
    const res = await t.app.inject({ method: 'HEAD', url: '/api/raw/notes.txt', headers: { 'x-auth': t.token() } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-length']).toBe(String(TEXT.length));
    expect(res.body).toBe('');
  });

  it('redirects the bare prefix to the root', async () => {
    const res = await get(t, '/api/raw');
    expect(res.statusCode).toBe(301);
    expect(res.headers.location).toBe('/api/raw/');
  });

  it('answers 401 without a token', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/raw/notes.txt' });
    expect(res.statusCode).toBe(401);
  });
});

describe('GET /api/raw: who may read what', () => {
  it('answers 202 Accepted, not 403, to a user without download permission', async () => {
    const t = await start({ tree: { 'a.txt': 'a' } });
    await t.addUser({ username: 'viewer', perm: { download: false } });
    const res = await getAs(t, 'viewer', '/api/raw/a.txt');
    expect(res.statusCode).toBe(202);
    expect(res.body).toBe('202 Accepted\n');
  });

  it('answers 404 for a missing file and 403 through an escaping symlink (resource_test)', async () => {
    const outside = await makeTree({ 'secret.txt': 'outside-secret' });
    dirs.push(outside);
    const t = await start({ tree: { 'srcdir/link.txt': { symlink: join(outside, 'secret.txt') }, 'real.txt': 'in', 'srcdir/ok.txt': { symlink: '../real.txt' } } });
    expect((await get(t, '/api/raw/missing.txt')).body).toBe('404 Not Found\n');
    const escaping = await get(t, '/api/raw/srcdir/link.txt');
    expect(escaping.statusCode).toBe(403);
    expect(escaping.body).not.toContain('outside-secret');
    const inScope = await get(t, '/api/raw/srcdir/ok.txt');
    expect(inScope.statusCode).toBe(200);
    expect(inScope.body).toBe('in');
  });

  it('answers 403 for a path a rule denies, also reached through ".." (rules_path)', async () => {
    const t = await start({
      tree: { 'Secret.txt': 's', 'allow/x.txt': 'x' },
      settings: (s) => {
        s.rules = [{ regex: false, allow: false, path: '/Secret.txt', regexp: null }];
      },
    });
    expect((await get(t, '/api/raw/Secret.txt')).statusCode).toBe(403);
    expect((await get(t, '/api/raw/allow/%2E%2E/Secret.txt')).statusCode).toBe(403);
    // A case-sensitive disk: the other spelling is a missing file, not a denied one.
    expect((await get(t, '/api/raw/secret.TXT')).statusCode).toBe(404);
  });

  it('hides dotfiles from a user with hideDotfiles (403)', async () => {
    const t = await start({ tree: { '.env': 'TOKEN=1' } });
    await t.addUser({ username: 'tidy', hideDotfiles: true, perm: { download: true } });
    expect((await getAs(t, 'tidy', '/api/raw/.env')).statusCode).toBe(403);
    expect((await get(t, '/api/raw/.env')).statusCode).toBe(200);
  });

  it("never serves the server's own database, even inside the root", async () => {
    const root = await makeTree({ 'filemgr.json': '{"secret":true}', 'a.txt': 'a' });
    dirs.push(root);
    const t = await start({ config: { root, databasePath: join(root, 'filemgr.json') } });
    const res = await get(t, '/api/raw/filemgr.json');
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('secret');
  });

  it('answers a named pipe with its disposition and an empty body, without opening it', async () => {
    const t = await start({ tree: { 'dir/': null } });
    execFileSync('mkfifo', [join(t.root, 'dir', 'pipe')]);
    const res = await get(t, '/api/raw/dir/pipe');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe("attachment; filename*=utf-8''pipe");
    expect(res.body).toBe('');
  });

  it('serves the current content of a file rewritten between requests', async () => {
    const t = await start({ tree: { 'v.txt': 'one' } });
    const first = await get(t, '/api/raw/v.txt');
    await writeFile(join(t.root, 'v.txt'), 'two, longer');
    const second = await get(t, '/api/raw/v.txt', { 'if-none-match': String(first.headers.etag) });
    expect(second.statusCode).toBe(200);
    expect(second.body).toBe('two, longer');
    expect(second.headers.etag).not.toBe(first.headers.etag);
  });
});
