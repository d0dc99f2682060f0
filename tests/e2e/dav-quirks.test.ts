import { readFile, stat, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ServerHandle } from './support/harness';
import { dav, header, hrefs, lockInfo, xmlText } from './support/dav';

// What real clients send, replayed byte for byte (beyond.md §1): Windows' Mini-Redirector, macOS
// Finder, and names that URL handling gets wrong.

const AWKWARD = ['a#b.txt', '100% sure.txt', 'with space.txt', 'Grüße ü.txt', '日本語.txt', 'q?mark.txt', 'semi;colon.txt'];

/** A path segment as a client writes it in a request target: every byte outside unreserved escaped. */
function encodeSegment(name: string): string {
  return encodeURIComponent(name).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

describe('client quirks over raw HTTP', () => {
  let server: ServerHandle;
  const disk = (rel: string): string => join(server.sandbox.root, rel);

  beforeAll(async () => {
    const tree: Record<string, string> = { 'win/doc.txt': 'windows', 'mac/old.txt': 'from before 1970' };
    for (const name of AWKWARD) tree[`names/${name}`] = `content of ${name}`;
    server = await startServer({ tree });
  });

  afterAll(async () => {
    await server.stop();
    await server.sandbox.remove();
  });

  describe('Windows (Mini-Redirector)', () => {
    it('answers OPTIONS without credentials, advertising class 1 and 2 and MS-Author-Via', async () => {
      const answer = await dav(server, 'OPTIONS', '/dav/', { auth: null });
      expect(answer.status).toBeLessThan(300);
      expect(header(answer, 'dav').replace(/\s/g, '')).toMatch(/^1,2/);
      expect(header(answer, 'ms-author-via')).toBe('DAV');
      const allow = header(answer, 'allow').split(',').map((m) => m.trim());
      for (const method of ['OPTIONS', 'PROPFIND', 'PROPPATCH', 'MKCOL', 'GET', 'HEAD', 'PUT', 'DELETE', 'COPY', 'MOVE', 'LOCK', 'UNLOCK']) {
        expect(allow, method).toContain(method);
      }
    });

    it('then answers PROPFIND without credentials 401 with the Basic challenge', async () => {
      const answer = await dav(server, 'PROPFIND', '/dav/', { auth: null, headers: { Depth: '0' } });
      expect(answer.status).toBe(401);
      expect(header(answer, 'www-authenticate')).toBe('Basic realm="filemgr", charset="UTF-8"');
    });

    it('sets the file time from PROPPATCH Win32LastModifiedTime', async () => {
      const when = 'Thu, 01 Jan 2015 10:00:00 GMT';
      const body = `<?xml version="1.0" encoding="utf-8" ?><D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:schemas-microsoft-com:"><D:set><D:prop><Z:Win32CreationTime>${when}</Z:Win32CreationTime><Z:Win32LastAccessTime>${when}</Z:Win32LastAccessTime><Z:Win32LastModifiedTime>${when}</Z:Win32LastModifiedTime><Z:Win32FileAttributes>00000020</Z:Win32FileAttributes></D:prop></D:set></D:propertyupdate>`;
      const answer = await dav(server, 'PROPPATCH', '/dav/win/doc.txt', { body, headers: { 'Content-Type': 'text/xml; charset="utf-8"' } });
      expect(answer.status).toBe(207);
      expect(answer.body).toMatch(/200 OK/);
      expect(answer.body).not.toMatch(/HTTP\/1\.1 (4|5)\d\d/);
      expect((await stat(disk('win/doc.txt'))).mtime.toISOString()).toBe('2015-01-01T10:00:00.000Z');
      const listed = await dav(server, 'PROPFIND', '/dav/win/doc.txt', { headers: { Depth: '0' } });
      expect(xmlText(listed.body, 'getlastmodified')).toBe(when);
    });
  });

  describe('macOS Finder', () => {
    it('stores a chunked PUT without Content-Length', async () => {
      const parts = Array.from({ length: 64 }, (_, i) => Buffer.alloc(16 * 1024, 97 + (i % 26)));
      const answer = await dav(server, 'PUT', '/dav/mac/chunked.bin', { body: Readable.from(parts), headers: { 'Content-Type': 'application/octet-stream' } });
      expect(answer.status).toBe(201);
      expect((await readFile(disk('mac/chunked.bin'))).equals(Buffer.concat(parts))).toBe(true);
    });

    it('locks and unlocks a file, and the lock shows in lockdiscovery', async () => {
      const locked = await dav(server, 'LOCK', '/dav/mac/old.txt', { body: lockInfo('finder'), headers: { Timeout: 'Second-600', Depth: '0', 'Content-Type': 'text/xml' } });
      expect(locked.status).toBe(200);
      const token = header(locked, 'lock-token');
      expect(token).toMatch(/^<[^>]+>$/);
      expect(locked.body).toContain(token.slice(1, -1));
      const found = await dav(server, 'PROPFIND', '/dav/mac/old.txt', { headers: { Depth: '0' }, body: '<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:prop><D:lockdiscovery/></D:prop></D:propfind>' });
      expect(found.body).toContain(token.slice(1, -1));
      expect((await dav(server, 'UNLOCK', '/dav/mac/old.txt', { headers: { 'Lock-Token': token } })).status).toBe(204);
    });

    it('never reports a modification time before 1970 for a file dated 1969', async () => {
      const before1970 = new Date('1969-07-20T20:17:00Z');
      await utimes(disk('mac/old.txt'), before1970, before1970);
      const answer = await dav(server, 'PROPFIND', '/dav/mac/old.txt', { headers: { Depth: '0' } });
      expect(answer.status).toBe(207);
      const modified = xmlText(answer.body, 'getlastmodified') ?? '';
      expect(modified).toMatch(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
      expect(Date.parse(modified)).toBeGreaterThanOrEqual(0);
    });
  });

  describe('names with #, %, spaces and non-ASCII', () => {
    it('lists them percent-encoded, each href decoding to the name on disk', async () => {
      const answer = await dav(server, 'PROPFIND', '/dav/names/', { headers: { Depth: '1' } });
      expect(answer.status).toBe(207);
      const children = hrefs(answer.body).map((h) => new URL(h, server.url).pathname).filter((p) => p !== '/dav/names/');
      for (const href of children) {
        expect(href, href).toMatch(/^[A-Za-z0-9\-._~!$&'()*+,;=:@/%]+$/);
        expect(href).not.toMatch(/#|%(?![0-9A-Fa-f]{2})/);
      }
      const decoded = children.map((h) => decodeURIComponent(h.slice('/dav/names/'.length)).normalize('NFC')).sort();
      expect(decoded).toEqual([...AWKWARD].map((n) => n.normalize('NFC')).sort());
    });

    it.each(AWKWARD)('gets %j by its encoded name and puts a sibling beside it', async (name) => {
      const got = await dav(server, 'GET', `/dav/names/${encodeSegment(name)}`);
      expect(got.status).toBe(200);
      expect(got.body).toBe(`content of ${name}`);
      const put = await dav(server, 'PUT', `/dav/names/${encodeSegment(`new ${name}`)}`, { body: `new ${name}` });
      expect(put.status).toBe(201);
      expect(await readFile(disk(`names/new ${name}`), 'utf8')).toBe(`new ${name}`);
    });

    it('moves a file to a name with # and % given in Destination', async () => {
      const destination = `${server.url}/dav/names/${encodeSegment('moved #1 100%.txt')}`;
      const answer = await dav(server, 'MOVE', `/dav/names/${encodeSegment('a#b.txt')}`, { headers: { Destination: destination } });
      expect(answer.status).toBe(201);
      expect(await readFile(disk('names/moved #1 100%.txt'), 'utf8')).toBe('content of a#b.txt');
    });
  });
});
