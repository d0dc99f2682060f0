import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, TEST_ADMIN, type TestApp } from '../../../tests/support/test-app';
import { parseXml } from './xml';

let t: TestApp;
const auth = `Basic ${Buffer.from(`${TEST_ADMIN.username}:${TEST_ADMIN.password}`).toString('base64')}`;

type Method = 'GET' | 'HEAD' | 'PUT' | 'DELETE' | 'OPTIONS' | 'PROPFIND' | 'PROPPATCH' | 'MKCOL' | 'COPY' | 'MOVE' | 'LOCK' | 'UNLOCK';

function dav(method: Method, url: string, opts: { headers?: Record<string, string>; body?: string | Readable } = {}) {
  return t.app.inject({ method, url, headers: { authorization: auth, host: 'localhost', ...opts.headers }, payload: opts.body });
}

const LOCKINFO = (scope: 'exclusive' | 'shared'): string =>
  `<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:${scope}/></D:lockscope><D:locktype><D:write/></D:locktype><D:owner><D:href>me</D:href></D:owner></D:lockinfo>`;

beforeEach(async () => {
  t = await buildTestApp({ tree: { 'docs/a.txt': 'hello world', 'docs/sub/b.txt': 'b', 'my file #1%.txt': 'x', 'héllo.txt': 'h' } });
});
afterEach(async () => t.close());

describe('WebDAV OPTIONS and PROPFIND', () => {
  it('answers OPTIONS without credentials', async () => {
    const res = await t.app.inject({ method: 'OPTIONS', url: '/dav/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers.dav).toBe('1, 2');
    expect(res.headers['ms-author-via']).toBe('DAV');
    expect(String(res.headers.allow)).toContain('PROPFIND');
  });

  it('lists a folder at depth 1 with percent-encoded hrefs and live properties', async () => {
    const res = await dav('PROPFIND', '/dav/', { headers: { depth: '1' } });
    expect(res.statusCode).toBe(207);
    expect(res.body).toContain('<D:href>/dav/</D:href>');
    expect(res.body).toContain('<D:href>/dav/docs/</D:href>');
    expect(res.body).toContain('<D:href>/dav/my%20file%20%231%25.txt</D:href>');
    expect(res.body).toContain('<D:href>/dav/h%C3%A9llo.txt</D:href>');
    expect(res.body).toContain('<D:displayname>my file #1%.txt</D:displayname>');
    expect(res.body).not.toContain('b.txt');
  });

  it('gives a file the same ETag as GET /api/raw and an RFC 1123 date', async () => {
    const res = await dav('PROPFIND', '/dav/docs/a.txt', { headers: { depth: '0' }, body: '<D:propfind xmlns:D="DAV:"><D:prop><D:getetag/><D:getlastmodified/><D:getcontentlength/><D:nothing/></D:prop></D:propfind>' });
    const raw = await t.app.inject({ method: 'GET', url: '/api/raw/docs/a.txt', headers: { 'x-auth': t.token() } });
    expect(res.body).toContain(`<D:getetag>${String(raw.headers.etag)}</D:getetag>`);
    expect(res.body).toMatch(/<D:getlastmodified>\w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d GMT<\/D:getlastmodified>/);
    expect(res.body).toContain('<D:getcontentlength>11</D:getcontentlength>');
    expect(res.body).toMatch(/<D:nothing\/><\/D:prop><D:status>HTTP\/1.1 404 Not Found/);
  });

  it('never dates a file before 1970 (macOS Finder chokes on it)', async () => {
    const { utimes } = await import('node:fs/promises');
    const old = new Date('1960-01-01T00:00:00Z');
    await utimes(join(t.root, 'docs/a.txt'), old, old);
    const res = await dav('PROPFIND', '/dav/docs/a.txt', { headers: { depth: '0' } });
    expect(res.body).toContain('<D:getlastmodified>Thu, 01 Jan 1970 00:00:00 GMT</D:getlastmodified>');
  });

  it('refuses Depth infinity with propfind-finite-depth', async () => {
    const res = await dav('PROPFIND', '/dav/', { headers: { depth: 'infinity' } });
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain('<D:propfind-finite-depth/>');
  });

  it.each([
    ['a DOCTYPE', '<!DOCTYPE x [<!ENTITY a "b">]><D:propfind xmlns:D="DAV:"><D:allprop/></D:propfind>', 400],
    ['malformed XML', '<D:propfind xmlns:D="DAV:">', 400],
    ['a foreign root', '<x/>', 400],
    ['a body over 64 KiB', `<D:propfind xmlns:D="DAV:"><!--${'x'.repeat(70_000)}--><D:allprop/></D:propfind>`, 413],
  ])('answers %s with %s', async (_name, body, status) => {
    expect((await dav('PROPFIND', '/dav/', { headers: { depth: '0' }, body })).statusCode).toBe(status);
  });
});

describe('WebDAV GET, PUT, MKCOL, DELETE', () => {
  it('serves ranges with the ETag', async () => {
    const res = await dav('GET', '/dav/docs/a.txt', { headers: { range: 'bytes=6-' } });
    expect(res.statusCode).toBe(206);
    expect(res.body).toBe('world');
    const etag = String(res.headers.etag);
    expect((await dav('GET', '/dav/docs/a.txt', { headers: { 'if-none-match': etag } })).statusCode).toBe(304);
  });

  it('PUTs a chunked body as a new file (201), then replaces it (204), keeping X-OC-Mtime', async () => {
    const first = await dav('PUT', '/dav/docs/new.bin', { body: Readable.from([Buffer.from('ab'), Buffer.from('cd')]), headers: { 'x-oc-mtime': '1500000000' } });
    expect(first.statusCode).toBe(201);
    expect(first.headers['x-oc-mtime']).toBe('accepted');
    expect(await readFile(join(t.root, 'docs/new.bin'), 'utf8')).toBe('abcd');
    expect((await stat(join(t.root, 'docs/new.bin'))).mtimeMs).toBe(1500000000 * 1000);
    const second = await dav('PUT', '/dav/docs/new.bin', { body: 'xyz' });
    expect(second.statusCode).toBe(204);
    expect(await readFile(join(t.root, 'docs/new.bin'), 'utf8')).toBe('xyz');
  });

  it('honours If-Match and If-None-Match: * on PUT', async () => {
    expect((await dav('PUT', '/dav/docs/a.txt', { body: 'x', headers: { 'if-none-match': '*' } })).statusCode).toBe(412);
    expect((await dav('PUT', '/dav/docs/a.txt', { body: 'x', headers: { 'if-match': '"nope"' } })).statusCode).toBe(412);
    expect((await dav('PUT', '/dav/docs/fresh.txt', { body: 'x', headers: { 'if-match': '*' } })).statusCode).toBe(412);
    const etag = String((await dav('HEAD', '/dav/docs/a.txt')).headers.etag);
    expect((await dav('PUT', '/dav/docs/a.txt', { body: 'x', headers: { 'if-match': etag } })).statusCode).toBe(204);
    expect((await dav('PUT', '/dav/docs/new.txt', { body: 'x', headers: { 'if-none-match': '*' } })).statusCode).toBe(201);
  });

  it('refuses PUT without a parent (409) and onto a folder (405)', async () => {
    expect((await dav('PUT', '/dav/nope/x.txt', { body: 'x' })).statusCode).toBe(409);
    expect((await dav('PUT', '/dav/docs', { body: 'x' })).statusCode).toBe(405);
  });

  it('makes collections: 201, then 405 again, 409 without parent, 415 with a body', async () => {
    expect((await dav('MKCOL', '/dav/made')).statusCode).toBe(201);
    expect((await stat(join(t.root, 'made'))).isDirectory()).toBe(true);
    expect((await dav('MKCOL', '/dav/made')).statusCode).toBe(405);
    expect((await dav('MKCOL', '/dav/a/b/c')).statusCode).toBe(409);
    expect((await dav('MKCOL', '/dav/other', { body: '<x/>' })).statusCode).toBe(415);
  });

  it('deletes a tree (204), then 404; never the root', async () => {
    expect((await dav('DELETE', '/dav/docs')).statusCode).toBe(204);
    await expect(stat(join(t.root, 'docs'))).rejects.toThrow();
    expect((await dav('DELETE', '/dav/docs')).statusCode).toBe(404);
    expect((await dav('DELETE', '/dav/')).statusCode).toBe(403);
  });
});

describe('WebDAV COPY and MOVE', () => {
  const dest = (p: string): Record<string, string> => ({ destination: `http://localhost/dav${p}` });

  it('copies a tree (201), refuses Overwrite: F (412), replaces with T (204)', async () => {
    expect((await dav('COPY', '/dav/docs', { headers: dest('/copy') })).statusCode).toBe(201);
    expect(await readFile(join(t.root, 'copy/sub/b.txt'), 'utf8')).toBe('b');
    expect((await dav('COPY', '/dav/docs/a.txt', { headers: { ...dest('/copy/sub/b.txt'), overwrite: 'F' } })).statusCode).toBe(412);
    expect((await dav('COPY', '/dav/docs/a.txt', { headers: dest('/copy/sub/b.txt') })).statusCode).toBe(204);
    expect(await readFile(join(t.root, 'copy/sub/b.txt'), 'utf8')).toBe('hello world');
  });

  it('copies a collection alone with Depth 0', async () => {
    expect((await dav('COPY', '/dav/docs', { headers: { ...dest('/shallow'), depth: '0' } })).statusCode).toBe(201);
    await expect(stat(join(t.root, 'shallow/a.txt'))).rejects.toThrow();
  });

  it('moves with dead properties following the resource', async () => {
    const set = '<D:propertyupdate xmlns:D="DAV:"><D:set><D:prop><Z:tag xmlns:Z="urn:z">blue</Z:tag></D:prop></D:set></D:propertyupdate>';
    expect((await dav('PROPPATCH', '/dav/docs/a.txt', { body: set })).statusCode).toBe(207);
    expect((await dav('MOVE', '/dav/docs/a.txt', { headers: dest('/moved.txt') })).statusCode).toBe(201);
    const found = await dav('PROPFIND', '/dav/moved.txt', { headers: { depth: '0' }, body: '<D:propfind xmlns:D="DAV:"><D:prop><Z:tag xmlns:Z="urn:z"/></D:prop></D:propfind>' });
    expect(found.body).toMatch(/<n0:tag xmlns:n0="urn:z">blue<\/n0:tag>/);
  });

  it.each([
    ['another host', 'http://elsewhere.example/dav/x', 502],
    ['a path off the mount', '/api/resources/x', 403],
    ['a path climbing out', '/dav/../../etc/x', 403],
    ['encoded dot segments climbing out', '/dav/%2e%2e/etc/x', 403],
    ['a malformed URL', 'http://[::1', 400],
    ['bad percent-encoding', '/dav/%zz', 400],
    ['the source itself', '/dav/docs', 403],
    ['inside the source', '/dav/docs/sub/inner', 403],
  ])('refuses a Destination on %s (%s)', async (_name, destination, status) => {
    expect((await dav('MOVE', '/dav/docs', { headers: { destination } })).statusCode).toBe(status);
  });

  it('needs a parent at the destination (409)', async () => {
    expect((await dav('COPY', '/dav/docs/a.txt', { headers: dest('/none/a.txt') })).statusCode).toBe(409);
  });
});

describe('WebDAV PROPPATCH', () => {
  it('protects live properties: 403 for them, 424 for the rest, nothing stored', async () => {
    const body = '<D:propertyupdate xmlns:D="DAV:"><D:set><D:prop><D:getetag>x</D:getetag><Z:a xmlns:Z="urn:z">1</Z:a></D:prop></D:set></D:propertyupdate>';
    const res = await dav('PROPPATCH', '/dav/docs/a.txt', { body });
    expect(res.body).toContain('HTTP/1.1 403 Forbidden');
    expect(res.body).toContain('HTTP/1.1 424 Failed Dependency');
    expect(t.store.data().davProperties ?? {}).toEqual({});
  });

  it('refuses more than 64 KiB of properties with 507', async () => {
    const body = `<D:propertyupdate xmlns:D="DAV:"><D:set><D:prop><Z:a xmlns:Z="urn:z">${'x'.repeat(60_000)}</Z:a></D:prop></D:set></D:propertyupdate>`;
    expect((await dav('PROPPATCH', '/dav/docs/a.txt', { body })).body).toContain('HTTP/1.1 200 OK');
    const more = body.replace(/<Z:a /g, '<Z:b ').replace('</Z:a>', '</Z:b>');
    expect((await dav('PROPPATCH', '/dav/docs/a.txt', { body: more })).body).toContain('HTTP/1.1 507 Insufficient Storage');
  });

  it('sets the file time from Win32LastModifiedTime', async () => {
    const body = '<D:propertyupdate xmlns:D="DAV:" xmlns:W="urn:schemas-microsoft-com:"><D:set><D:prop><W:Win32LastModifiedTime>Wed, 01 Jan 2020 00:00:00 GMT</W:Win32LastModifiedTime></D:prop></D:set></D:propertyupdate>';
    expect((await dav('PROPPATCH', '/dav/docs/a.txt', { body })).statusCode).toBe(207);
    expect((await stat(join(t.root, 'docs/a.txt'))).mtimeMs).toBe(Date.UTC(2020, 0, 1));
  });
});

describe('WebDAV LOCK, UNLOCK and If', () => {
  it('locks, refuses writes without the token (423), accepts them with it, unlocks', async () => {
    const lock = await dav('LOCK', '/dav/docs/a.txt', { body: LOCKINFO('exclusive'), headers: { timeout: 'Second-100' } });
    expect(lock.statusCode).toBe(200);
    const token = String(lock.headers['lock-token']).slice(1, -1);
    expect(lock.body).toContain('<D:timeout>Second-100</D:timeout>');
    expect((await dav('PUT', '/dav/docs/a.txt', { body: 'x' })).statusCode).toBe(423);
    expect((await dav('DELETE', '/dav/docs')).statusCode).toBe(423);
    expect((await dav('LOCK', '/dav/docs/a.txt', { body: LOCKINFO('shared') })).statusCode).toBe(423);
    expect((await dav('PUT', '/dav/docs/a.txt', { body: 'x', headers: { if: `(<${token}>)` } })).statusCode).toBe(204);
    expect((await dav('PUT', '/dav/docs/a.txt', { body: 'x', headers: { if: `(<${token}> ["nope"])` } })).statusCode).toBe(412);
    expect((await dav('UNLOCK', '/dav/docs/a.txt', { headers: { 'lock-token': `<${token}>` } })).statusCode).toBe(204);
    expect((await dav('PUT', '/dav/docs/a.txt', { body: 'y' })).statusCode).toBe(204);
  });

  it('caps the timeout at a day and refreshes through the If header', async () => {
    const lock = await dav('LOCK', '/dav/docs', { body: LOCKINFO('exclusive'), headers: { timeout: 'Infinite' } });
    expect(lock.body).toContain('<D:timeout>Second-86400</D:timeout>');
    const token = String(lock.headers['lock-token']).slice(1, -1);
    const refreshed = await dav('LOCK', '/dav/docs/a.txt', { headers: { if: `(<${token}>)`, timeout: 'Second-60' } });
    expect(refreshed.statusCode).toBe(200);
    expect(refreshed.body).toContain('<D:timeout>Second-60</D:timeout>');
    expect(refreshed.body).toContain('<D:lockroot><D:href>/dav/docs/</D:href></D:lockroot>');
    expect((await dav('PUT', '/dav/docs/sub/new.txt', { body: 'x' })).statusCode).toBe(423);
  });

  it('creates an empty file for a lock on an unmapped name (201)', async () => {
    const res = await dav('LOCK', '/dav/docs/fresh.txt', { body: LOCKINFO('exclusive') });
    expect(res.statusCode).toBe(201);
    expect(await readFile(join(t.root, 'docs/fresh.txt'), 'utf8')).toBe('');
  });

  it('lets shared locks stack', async () => {
    expect((await dav('LOCK', '/dav/docs/a.txt', { body: LOCKINFO('shared') })).statusCode).toBe(200);
    expect((await dav('LOCK', '/dav/docs/a.txt', { body: LOCKINFO('shared') })).statusCode).toBe(200);
    const found = await dav('PROPFIND', '/dav/docs/a.txt', { headers: { depth: '0' }, body: '<D:propfind xmlns:D="DAV:"><D:prop><D:lockdiscovery/></D:prop></D:propfind>' });
    expect(found.body.match(/<D:activelock>/g)).toHaveLength(2);
  });

  it.each([['(<foo'], ['nonsense'], ['<http://localhost/dav/x>']])('answers a malformed If %s with 400', async (value) => {
    expect((await dav('PUT', '/dav/docs/a.txt', { body: 'x', headers: { if: value } })).statusCode).toBe(400);
  });

  it('answers an unknown lock token on UNLOCK with 409 and a malformed one with 400', async () => {
    expect((await dav('UNLOCK', '/dav/docs/a.txt', { headers: { 'lock-token': '<urn:uuid:nope>' } })).statusCode).toBe(409);
    expect((await dav('UNLOCK', '/dav/docs/a.txt', { headers: { 'lock-token': 'nope' } })).statusCode).toBe(400);
  });
});

describe('WebDAV large and hostile bodies', () => {
  it('streams a PUT far over the API body limit, with or without a length', async () => {
    const big = Buffer.alloc(3 * 1024 * 1024, 7);
    expect((await dav('PUT', '/dav/big.bin', { body: big.toString('latin1'), headers: { 'content-type': 'application/octet-stream' } })).statusCode).toBe(201);
    expect((await stat(join(t.root, 'big.bin'))).size).toBe(big.length);
    const chunks = Readable.from(Array.from({ length: 12 }, () => Buffer.alloc(256 * 1024, 1)));
    expect((await dav('PUT', '/dav/big.bin', { body: chunks })).statusCode).toBe(204);
    expect((await stat(join(t.root, 'big.bin'))).size).toBe(12 * 256 * 1024);
  });

  it('refuses a billion-laughs PROPPATCH and LOCK with 400', async () => {
    const laughs = `<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><D:propertyupdate xmlns:D="DAV:"><D:set><D:prop><Z:x xmlns:Z="urn:z">&c;</Z:x></D:prop></D:set></D:propertyupdate>`;
    expect((await dav('PROPPATCH', '/dav/docs/a.txt', { body: laughs })).statusCode).toBe(400);
    expect((await dav('LOCK', '/dav/docs/a.txt', { body: laughs })).statusCode).toBe(400);
  });

  it.each([
    ['Depth', 'PROPFIND', { depth: 'two' }],
    ['Depth on COPY', 'COPY', { depth: '1', destination: '/dav/x' }],
    ['Depth on MOVE', 'MOVE', { depth: '0', destination: '/dav/x' }],
    ['Overwrite', 'COPY', { overwrite: 'maybe', destination: '/dav/x' }],
    ['X-OC-Mtime', 'PUT', { 'x-oc-mtime': 'yesterday' }],
    ['Content-Range on PUT', 'PUT', { 'content-range': 'bytes 0-1/2' }],
    ['Depth on LOCK', 'LOCK', { depth: '1' }],
  ] as const)('answers a bad %s with 400', async (_name, method, headers) => {
    const body = method === 'LOCK' ? LOCKINFO('exclusive') : method === 'PUT' ? 'x' : undefined;
    expect((await dav(method, '/dav/docs/a.txt', { headers: { ...headers }, body })).statusCode).toBe(400);
  });

  it('serves a file with the global and the download CSP', async () => {
    const res = await dav('GET', '/dav/docs/a.txt');
    expect(res.headers['content-security-policy']).toEqual(expect.arrayContaining(["script-src 'none';", 'sandbox']));
    expect(String(res.headers['content-security-policy'])).toContain("default-src 'self'");
  });
});

describe('WebDAV If on reads and tagged lists', () => {
  it('answers a GET or PROPFIND whose If does not hold with 412', async () => {
    expect((await dav('GET', '/dav/docs/a.txt', { headers: { if: '(["nope"])' } })).statusCode).toBe(412);
    expect((await dav('PROPFIND', '/dav/docs/a.txt', { headers: { depth: '0', if: '(<urn:uuid:x>)' } })).statusCode).toBe(412);
    const etag = String((await dav('HEAD', '/dav/docs/a.txt')).headers.etag);
    expect((await dav('GET', '/dav/docs/a.txt', { headers: { if: `([${etag}])` } })).statusCode).toBe(200);
  });

  it('matches a tagged list by path even when a proxy changed the host', async () => {
    const lock = await dav('LOCK', '/dav/docs', { body: LOCKINFO('exclusive') });
    const token = String(lock.headers['lock-token']).slice(1, -1);
    const tagged = `<http://public.example/dav/docs/> (<${token}>)`;
    expect((await dav('PUT', '/dav/docs/a.txt', { body: 'z', headers: { if: tagged } })).statusCode).toBe(204);
  });
});

describe('WebDAV PROPFIND of a large folder', () => {
  it('streams a well-formed multistatus with every entry', async () => {
    const { mkdir, writeFile } = await import('node:fs/promises');
    await mkdir(join(t.root, 'many'));
    for (let i = 0; i < 2500; i++) await writeFile(join(t.root, 'many', `f ${i}.txt`), 'x');
    const res = await dav('PROPFIND', '/dav/many/', { headers: { depth: '1' }, body: '<D:propfind xmlns:D="DAV:"><D:prop><D:getetag/></D:prop></D:propfind>' });
    expect(res.statusCode).toBe(207);
    expect(res.headers['content-length']).toBeUndefined();
    const doc = parseXml(res.body);
    expect(doc.children.filter((c) => typeof c === 'object')).toHaveLength(2501);
    expect(res.body).toContain('<D:href>/dav/many/f%202499.txt</D:href>');
  });
});
