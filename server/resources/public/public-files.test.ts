import { execFileSync } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { get as httpGet } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appsForEachTest, dirsRemovedAfterEachTest } from '../../../tests/support/per-test';
import { type TestApp, type TestAppOptions, type TestUserFields } from '../../../tests/support/test-app';
import type { Tree } from '../../../tests/support/tree';
import type { Rule } from '../../state/schema';

const start = appsForEachTest();
const dirs = dirsRemovedAfterEachTest();

interface Fixture {
  tree: Tree;
  /** The shared path (hash 'h'). */
  path: string;
  owner?: Partial<TestUserFields>;
  config?: TestAppOptions['config'];
}

/** An app whose user 'owner' (id 2, share+download+modify) shares `path` as 'h', no password. */
async function withShare(f: Fixture): Promise<TestApp> {
  const t = await start({ tree: f.tree, config: f.config });
  const perm = { share: true, download: true, modify: true, ...f.owner?.perm };
  const owner = await t.addUser({ username: 'owner', ...f.owner, perm });
  await t.store.update((db) => {
    db.shares.push({ hash: 'h', path: f.path, userID: owner.id, expire: 0 });
  });
  return t;
}

const visit = (t: TestApp, url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

/**
 * GET over a real connection with the path sent verbatim: inject() parses URLs as WHATWG URLs,
 * which resolve '..' and '%2e%2e' segments before the server could see them.
 */
async function rawGet(t: TestApp, path: string): Promise<{ status: number; body: Buffer }> {
  if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = httpGet({ host: '127.0.0.1', port, path }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
  });
}

interface Listing {
  path: string;
  name: string;
  isDir: boolean;
  type: string;
  sorting?: { by: string; asc: boolean };
  items: { path: string; name: string; isDir: boolean; type: string }[];
  numDirs: number;
  numFiles: number;
  content?: string;
}

/** Member names as the format's standard tool lists them, sorted, without a directory's '/'. */
async function members(body: Buffer, algo: string): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'filemgr-public-'));
  dirs.push(dir);
  const file = join(dir, 'archive');
  await writeFile(file, body);
  const decompress: Record<string, string> = { targz: 'gzip', tarbz2: 'bzip2', tarxz: 'xz', tarlz4: 'lz4', tarbr: 'brotli' };
  const tarInput = decompress[algo] ? execFileSync(decompress[algo], ['-dc', file]) : body;
  const listing = algo === 'zip' ? execFileSync('unzip', ['-Z1', file], { encoding: 'utf8' }) : execFileSync('tar', ['-tf', '-'], { input: tarInput, encoding: 'utf8' });
  return listing
    .split('\n')
    .filter(Boolean)
    .map((n) => n.replace(/\/$/, ''))
    .sort();
}

const PROJECTS: Tree = {
  'projects/private/secret.txt': 'top secret',
  'projects/public/readme.txt': 'read me',
  'projects/Zeta.txt': 'z',
  'projects/alpha.txt': 'a',
  'projects/beta/': null,
};
const DENY_PRIVATE: Rule[] = [{ regex: false, allow: false, path: '/projects/private', regexp: null }];

describe("the owner's rules below a folder share (public_test)", () => {
  it.each([
    ['/api/public/dl/h/private/secret.txt', 403],
    ['/api/public/share/h/private/', 403],
    ['/api/public/dl/h/private/', 403],
    ['/api/public/dl/h/public/readme.txt', 200],
    ['/api/public/share/h/public/', 200],
  ])('GET %s answers %i', async (url, status) => {
    const t = await withShare({ tree: PROJECTS, path: '/projects/', owner: { rules: DENY_PRIVATE } });
    const res = await visit(t, url);
    expect(res.statusCode).toBe(status);
    expect(res.body).not.toContain('top secret');
  });

  it('leaves denied entries out of the listing and out of the archive', async () => {
    const t = await withShare({ tree: PROJECTS, path: '/projects/', owner: { rules: DENY_PRIVATE } });
    const names = (await visit(t, '/api/public/share/h')).json<Listing>().items.map((i) => i.name);
    expect(names).not.toContain('private');
    const zip = await visit(t, '/api/public/dl/h/');
    expect(await members(zip.rawPayload, 'zip')).toEqual(['Zeta.txt', 'alpha.txt', 'beta', 'public', 'public/readme.txt']);
  });

  it('refuses the whole link when a rule denies its own path', async () => {
    const rules: Rule[] = [{ regex: false, allow: false, path: '/projects', regexp: null }];
    const t = await withShare({ tree: PROJECTS, path: '/projects/', owner: { rules } });
    expect((await visit(t, '/api/public/share/h')).statusCode).toBe(403);
    expect((await visit(t, '/api/public/dl/h')).statusCode).toBe(403);
  });

  it("applies the owner's hidden dotfiles", async () => {
    const t = await withShare({ tree: { 'dir/.env': 'k', 'dir/a.txt': 'a', '.hidden/x': 'x' }, path: '/dir/', owner: { hideDotfiles: true } });
    expect((await visit(t, '/api/public/share/h')).json<Listing>().items.map((i) => i.name)).toEqual(['a.txt']);
    expect((await visit(t, '/api/public/dl/h/.env')).statusCode).toBe(403);
    await t.store.update((db) => {
      db.shares.push({ hash: 'dot', path: '/.hidden/', userID: 2, expire: 0 });
    });
    expect((await visit(t, '/api/public/share/dot')).statusCode).toBe(403);
  });
});

describe('what a visitor sees', () => {
  it('lists a folder share named after the link, sorted by name with folders first, paths relative to the share', async () => {
    const t = await withShare({ tree: PROJECTS, path: '/projects/' });
    const res = await visit(t, '/api/public/share/h');
    expect(res.statusCode).toBe(200);
    const body = res.json<Listing>();
    expect(body).toMatchObject({ path: '/', name: 'projects', isDir: true, type: '', sorting: { by: 'name', asc: false }, numDirs: 3, numFiles: 2 });
    expect(body.items.map((i) => i.path)).toEqual(['/beta', '/private', '/public', '/alpha.txt', '/Zeta.txt']);
  });

  it('lists a folder inside the share by its own name', async () => {
    const t = await withShare({ tree: PROJECTS, path: '/projects/' });
    const body = (await visit(t, '/api/public/share/h/public')).json<Listing>();
    expect(body).toMatchObject({ path: '/public', name: 'public' });
    expect(body.items.map((i) => i.path)).toEqual(['/public/readme.txt']);
  });

  it('describes a file share with an empty path, no content, and the type by the owner\'s modify permission', async () => {
    const t = await withShare({ tree: { 'docs/notes.txt': 'hello' }, path: '/docs/notes.txt', owner: { perm: { modify: false } } });
    const res = await visit(t, '/api/public/share/h');
    const body = res.json<Listing>();
    expect(body).toMatchObject({ path: '', name: 'notes.txt', isDir: false, type: 'textImmutable' });
    expect(body).not.toHaveProperty('content');
    expect(body).not.toHaveProperty('items');
  });

  it('lists a share in the owner\'s scope', async () => {
    const t = await withShare({ tree: { 'homes/owner/pics/a.jpg': 'x', 'pics/other.jpg': 'y' }, path: '/pics/', owner: { scope: '/homes/owner' } });
    expect((await visit(t, '/api/public/share/h')).json<Listing>().items.map((i) => i.name)).toEqual(['a.jpg']);
  });

  it.each(['/api/public/dl/h', '/api/public/dl/h/notes.txt', '/api/public/dl/h/anything/else'])('serves a file share at %s whatever the sub-path', async (url) => {
    const t = await withShare({ tree: { 'docs/notes.txt': 'hello', 'docs/other.txt': 'other' }, path: '/docs/notes.txt' });
    const res = await visit(t, url);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('hello');
    expect(res.headers['content-disposition']).toBe("attachment; filename*=utf-8''notes.txt");
    expect(res.headers['content-type']).toBe('application/octet-stream');
  });

  it('serves a file inline with its type, ranges and validators as /api/raw does', async () => {
    const t = await withShare({ tree: { 'docs/notes.txt': 'hello world' }, path: '/docs/notes.txt' });
    const inline = await visit(t, '/api/public/dl/h?inline=true');
    expect(inline.headers['content-disposition']).toBe("inline; filename*=utf-8''notes.txt");
    expect(inline.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(inline.headers['x-content-type-options']).toBe('nosniff');
    const range = await visit(t, '/api/public/dl/h', { range: 'bytes=6-' });
    expect(range.statusCode).toBe(206);
    expect(range.body).toBe('world');
    const again = await visit(t, '/api/public/dl/h', { 'if-none-match': String(inline.headers.etag) });
    expect(again.statusCode).toBe(304);
    const head = await t.app.inject({ method: 'HEAD', url: '/api/public/dl/h' });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe('11');
    expect(head.body).toBe('');
  });

  it('names the subtitles of a video inside a folder share, never those beside a shared video', async () => {
    const tree: Tree = { 'films/movie.mp4': 'x', 'films/movie.srt': '1', 'films/subs/movie.vtt': '2' };
    const folder = await withShare({ tree, path: '/films/' });
    expect((await visit(folder, '/api/public/share/h/movie.mp4')).json()).toMatchObject({ type: 'video', subtitles: ['/movie.srt', '/subs/movie.vtt'] });
    const file = await withShare({ tree, path: '/films/movie.mp4' });
    const body = (await visit(file, '/api/public/share/h')).json<Record<string, unknown>>();
    expect(body).toMatchObject({ type: 'video', path: '' });
    expect(body).not.toHaveProperty('subtitles');
  });

  it('serves a file inside a folder share', async () => {
    const t = await withShare({ tree: PROJECTS, path: '/projects/' });
    expect((await visit(t, '/api/public/dl/h/public/readme.txt')).body).toBe('read me');
  });
});

describe('archives of a shared folder', () => {
  it.each(['zip', 'tar', 'targz', 'tarbz2', 'tarxz', 'tarlz4', 'tarbr'])('streams a %s of the share that the standard tool lists', async (algo) => {
    const t = await withShare({ tree: PROJECTS, path: '/projects/' });
    const res = await visit(t, `/api/public/dl/h/?algo=${algo}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename\*=utf-8''projects\.(zip|tar)/);
    expect(await members(res.rawPayload, algo)).toEqual(['Zeta.txt', 'alpha.txt', 'beta', 'private', 'private/secret.txt', 'public', 'public/readme.txt']);
  });

  it('streams a snappy-framed tar', async () => {
    const t = await withShare({ tree: PROJECTS, path: '/projects/' });
    const res = await visit(t, '/api/public/dl/h/?algo=tarsz');
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.subarray(0, 10)).toEqual(Buffer.from([0xff, 0x06, 0x00, 0x00, 0x73, 0x4e, 0x61, 0x50, 0x70, 0x59]));
  });

  it('archives a sub-folder and a selection, with files relative to that folder', async () => {
    const t = await withShare({ tree: PROJECTS, path: '/projects/' });
    expect(await members((await visit(t, '/api/public/dl/h/public/?algo=tar')).rawPayload, 'tar')).toEqual(['readme.txt']);
    const sel = await visit(t, '/api/public/dl/h/?algo=zip&files=alpha.txt,public');
    expect(await members(sel.rawPayload, 'zip')).toEqual(['alpha.txt', 'public', 'public/readme.txt']);
  });

  it.each([
    { name: 'an unknown format', query: '?algo=rar', status: 400 },
    { name: 'a selection climbing out of the share', query: '?files=../../etc/passwd', status: 400 },
    { name: 'a selection with an absolute path (read inside the share)', query: '?files=/etc/passwd,alpha.txt', status: 404 },
  ])('answers $status to $name and sends nothing of it', async ({ query, status }) => {
    const t = await withShare({ tree: { ...PROJECTS, 'etc/passwd': 'root-secret' }, path: '/projects/' });
    const res = await visit(t, `/api/public/dl/h/${query}`);
    expect(res.statusCode).toBe(status);
    expect(res.body).not.toContain('root-secret');
  });
});

describe('confinement to the share', () => {
  const TREE: Tree = { 'shared/ok.txt': 'ok', 'shared/sub/x.txt': 'x', 'outside.txt': 'OUTSIDE-SECRET', 'private/secret.txt': 'symlink-secret' };

  it.each([
    '/api/public/dl/h/../outside.txt',
    '/api/public/dl/h/../../../outside.txt',
    '/api/public/dl/h/%2e%2e/outside.txt',
    '/api/public/dl/h/..%2foutside.txt',
    '/api/public/dl/h/%2E%2E%2Foutside.txt',
    '/api/public/dl/h/sub/../../outside.txt',
    '/api/public/dl/h/sub/%2e%2e/%2e%2e/outside.txt',
    '/api/public/dl/h/..%5coutside.txt',
    '/api/public/dl/h//../outside.txt',
    '/api/public/share/h/../private/',
    '/api/public/share/h/%2e%2e/private/secret.txt',
  ])('never serves what lies outside the share: %s', async (path) => {
    const t = await withShare({ tree: TREE, path: '/shared/' });
    const res = await rawGet(t, path);
    expect(res.status).toBe(404);
    expect(res.body.toString()).not.toMatch(/OUTSIDE-SECRET|symlink-secret/);
  });

  it('archives the share itself when asked for its parent', async () => {
    const t = await withShare({ tree: TREE, path: '/shared/' });
    for (const path of ['/api/public/dl/h/../?algo=zip', '/api/public/dl/h/%2e%2e/?algo=zip']) {
      const res = await rawGet(t, path);
      expect(res.status).toBe(200);
      expect(await members(res.body, 'zip')).toEqual(['ok.txt', 'sub', 'sub/x.txt']);
    }
  });

  it('keeps a file share to its one file', async () => {
    const t = await withShare({ tree: TREE, path: '/shared/ok.txt' });
    for (const path of ['/api/public/dl/h/../sub/x.txt', '/api/public/dl/h/sub/x.txt', '/api/public/dl/h/%2e%2e/outside.txt', '/api/public/dl/h/../../outside.txt']) {
      expect((await rawGet(t, path)).body.toString()).toBe('ok');
    }
  });

  describe('a symlink from the share to elsewhere in the owner\'s scope (public_symlink_test)', () => {
    const LINKED: Tree = { 'shared/ok.txt': 'ok', 'private/secret.txt': 'symlink-secret', 'shared/link': { symlink: '../private' } };

    it.each(['/api/public/dl/h/link/secret.txt', '/api/public/share/h/link/secret.txt', '/api/public/share/h/link/'])('%s is not served', async (url) => {
      const t = await withShare({ tree: LINKED, path: '/shared/' });
      const res = await visit(t, url);
      expect(res.statusCode).not.toBe(200);
      expect(res.body).not.toContain('symlink-secret');
    });

    it('is left out of the listing and the archive', async () => {
      const t = await withShare({ tree: LINKED, path: '/shared/' });
      const listing = await visit(t, '/api/public/share/h/');
      expect(listing.statusCode).toBe(200);
      expect(listing.body).not.toContain('"link"');
      const zip = await visit(t, '/api/public/dl/h/');
      expect(zip.statusCode).toBe(200);
      expect(await members(zip.rawPayload, 'zip')).toEqual(['ok.txt']);
      expect(zip.rawPayload.toString('latin1')).not.toContain('symlink-secret');
    });

    it('is followed with followExternalSymlinks', async () => {
      const tree: Tree = { 'shared/ok.txt': 'ok', 'outside/data.txt': 'payload', 'shared/link': { symlink: '../outside' } };
      const t = await withShare({ tree, path: '/shared/', config: { followExternalSymlinks: true } });
      expect((await visit(t, '/api/public/dl/h/link/data.txt')).body).toContain('payload');
      const listing = await visit(t, '/api/public/share/h/');
      expect(listing.statusCode).toBe(200);
      expect(listing.body).toContain('"link"');
    });
  });

  it('refuses a link whose own path is a symlink out of the owner\'s scope', async () => {
    const tree: Tree = { 'home/ok.txt': 'ok', 'elsewhere/secret.txt': 'symlink-secret', 'home/escape': { symlink: '../elsewhere' } };
    const t = await withShare({ tree, path: '/escape/', owner: { scope: '/home' } });
    for (const url of ['/api/public/share/h', '/api/public/dl/h/secret.txt']) {
      const res = await visit(t, url);
      expect(res.statusCode).toBe(403);
      expect(res.body).not.toContain('symlink-secret');
    }
  });
});
