import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { copyFile, mkdir, readFile, realpath, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findSeaBlob, withFileReader } from '../../server/lib/sea-file';
import { EXECUTABLE, makeSandbox, runExecutable, startServer, type Sandbox, type ServerHandle } from './support/harness';

const VERSION = (JSON.parse(readFileSync(resolve(__dirname, '../../package.json'), 'utf8')) as { version: string }).version;

interface RawResponse {
  status: number | undefined;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A GET whose body is left exactly as sent (fetch would decode br and gzip). */
function rawGet(url: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return new Promise((resolvePromise, reject) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolvePromise({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject).end();
  });
}

const sha256 = async (path: string) => createHash('sha256').update(await readFile(path)).digest('hex');

describe('the single executable', () => {
  it('prints filemgr, Node.js, sharp and libvips versions, a used code cache and assets read from the file from an empty directory with env -i HOME', async () => {
    const sandbox = await makeSandbox();
    const { code, stdout, stderr } = await runExecutable(['version', '--verbose'], { cwd: sandbox.home, env: { HOME: sandbox.home } });
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const lines = stdout.trim().split('\n');
    expect(lines[0]).toMatch(new RegExp(`^filemgr v${VERSION.replace(/\./g, '\\.')}/\\S+$`));
    expect(lines.slice(1)).toEqual([
      expect.stringMatching(/^Node\.js v24\.\d+\.\d+$/),
      expect.stringMatching(/^sharp \d+\.\d+\.\d+$/),
      expect.stringMatching(/^libvips \d+\.\d+\.\d+$/),
      // V8 took the code cache the build made for this Node and these flags.
      'code cache used',
      // The bundle and its code cache were read with pread, not through the mapping (4 MB of RSS).
      'assets read from the file',
    ]);
    // sharp came out of the executable into HOME's cache, not from a node_modules.
    expect(existsSync(join(sandbox.home, '.cache/filemgr/native'))).toBe(true);
    await sandbox.remove();
  });
});

/** The resident kilobytes of the executable's mappings that cover file offset `offset`. */
async function residentAt(pid: number, file: string, offset: number): Promise<number> {
  let resident = 0;
  let covers = false;
  for (const line of (await readFile(`/proc/${pid}/smaps`, 'utf8')).split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) \S+ ([0-9a-f]+) \S+ \S+\s+(.*)$/.exec(line);
    if (head) {
      const [start, end, from] = [head[1], head[2], head[3]].map((hex) => parseInt(hex ?? '0', 16)) as [number, number, number];
      covers = head[4] === file && from <= offset && offset < from + (end - start);
    } else if (covers) {
      resident += Number(/^Rss:\s+(\d+) kB$/.exec(line)?.[1] ?? 0);
    }
  }
  return resident;
}

describe('the executable at start', () => {
  it('keeps its server bundle and code cache out of its RSS: read from its own file, not through the mapping', async () => {
    const server = await startServer({ tree: { 'a.txt': 'a' } });
    try {
      const executable = await realpath(EXECUTABLE);
      const blob = withFileReader(executable, findSeaBlob);
      expect(blob).toBeDefined();
      // Read through the mapping, the 2.2 MB bundle and 1.7 MB cache stayed resident: 4,224 kB of the blob.
      expect(await residentAt(server.pid, executable, blob?.offset ?? 0)).toBeLessThan(1024);
    } finally {
      expect(await server.stop()).toBe(0);
      await server.sandbox.remove();
    }
  });
});

describe('the executable serving the web app', () => {
  let server: ServerHandle;
  let entry: string;

  beforeAll(async () => {
    server = await startServer({ tree: { 'a.txt': 'a' } });
    const index = await rawGet(`${server.url}/`);
    entry = /<script type="module" src="([^"]+)"/.exec(index.body.toString())?.[1] ?? '';
  });

  afterAll(async () => {
    expect(await server.stop()).toBe(0);
    await server.sandbox.remove();
  });

  it('runs with nothing but HOME in its environment and, its stdout being a pipe, writes the first-run password beside the database', () => {
    expect(server.password).toMatch(/^\S{12,}$/);
    expect(server.stdout()).toContain(`written to ${server.sandbox.database}.admin-password (mode 0600`);
    expect(server.stdout()).not.toContain(server.password);
  });

  it('serves index.html with the page configuration and a nonce-based CSP', async () => {
    const res = await rawGet(`${server.url}/files/`);
    const html = res.body.toString();
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const nonce = /'nonce-([^']+)'/.exec(String(res.headers['content-security-policy']))?.[1];
    expect(html).toContain(`<script nonce="${nonce}">window.FileBrowser = {`);
    const config = JSON.parse(/window\.FileBrowser = (.*?);<\/script>/.exec(html)?.[1] ?? '{}') as Record<string, unknown>;
    expect(config).toMatchObject({ Version: VERSION, StaticURL: '/static', AuthMethod: 'json', Name: '' });
    expect(entry).toMatch(/^\/static\/assets\/main-[A-Z0-9]{8}\.js$/);
  });

  it.each([
    ['br', brotliDecompressSync],
    ['gzip', gunzipSync],
  ] as const)('serves the hashed entry script as %s when asked, with the same bytes inside', async (encoding, decode) => {
    const plain = await rawGet(`${server.url}${entry}`, { 'accept-encoding': 'identity' });
    const packed = await rawGet(`${server.url}${entry}`, { 'accept-encoding': encoding });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(packed.headers['content-encoding']).toBe(encoding);
    expect(packed.headers['vary']).toBe('Accept-Encoding');
    expect(packed.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(packed.body.length).toBeLessThan(plain.body.length);
    expect(decode(packed.body).equals(plain.body)).toBe(true);
    const again = await rawGet(`${server.url}${entry}`, { 'accept-encoding': encoding, 'if-none-match': String(packed.headers['etag']) });
    expect(again.status).toBe(304);
  });
});

describe('the executable refusing bad input', () => {
  let template: Sandbox;
  let busy: Server;

  beforeAll(async () => {
    const first = await startServer();
    expect(await first.stop()).toBe(0);
    template = first.sandbox;
    busy = createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
  });

  afterAll(async () => {
    busy.close();
    await template.remove();
  });

  /** A sandbox holding a copy of a real database, so "untouched" can be checked byte for byte. */
  async function withDatabase(): Promise<Sandbox> {
    const sandbox = await makeSandbox();
    await mkdir(dirname(sandbox.database), { recursive: true });
    await copyFile(template.database, sandbox.database);
    return sandbox;
  }

  const cases: [string, (s: Sandbox) => string[] | Promise<string[]>, RegExp][] = [
    ['an unknown flag', () => ['--nope'], /unknown flag.*nope|nope.*unknown/i],
    ['a missing root', () => ['--root', '/nonexistent/filemgr-root'], /\/nonexistent\/filemgr-root/],
    ['a port in use', () => ['--port', String((busy.address() as AddressInfo).port)], /already in use/],
    ['a corrupt database', async (s) => {
      await writeFile(s.database, '{"version": 1, "settings": ');
      return [];
    }, /corrupt/],
    ['a missing --cert', (s) => ['--cert', join(s.dir, 'missing.pem'), '--key', join(s.dir, 'missing.key')], /missing\.pem/],
  ];

  it.each(cases)('ends on %s with one clear line, a non-zero exit and the database untouched', async (_name, prepare, message) => {
    const sandbox = await withDatabase();
    const extra = await prepare(sandbox);
    const before = await sha256(sandbox.database);
    const args = ['--port', '0', '--root', sandbox.root, '--database', sandbox.database, ...extra];
    const { code, stderr } = await runExecutable(args, { cwd: sandbox.home, env: { HOME: sandbox.home } });
    expect(code).not.toBe(0);
    expect(code).not.toBeNull();
    const lines = stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^filemgr: /);
    expect(lines[0]).toMatch(message);
    expect(await sha256(sandbox.database)).toBe(before);
    await sandbox.remove();
  });

  it('creates no database when the first run names a missing root', async () => {
    const sandbox = await makeSandbox();
    const args = ['--root', join(sandbox.dir, 'nope'), '--database', sandbox.database];
    const { code, stderr } = await runExecutable(args, { cwd: sandbox.home, env: { HOME: sandbox.home } });
    expect(code).toBe(1);
    expect(stderr).toMatch(/^filemgr: .*nope.*\n$/);
    expect(existsSync(sandbox.database)).toBe(false);
    await sandbox.remove();
  });
});
