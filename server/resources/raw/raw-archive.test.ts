import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, readlink, readdir, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appsForEachTest, dirsRemovedAfterEachTest } from '../../../tests/support/per-test';
import { buildTestApp, type TestApp } from '../../../tests/support/test-app';
import { makeTree } from '../../../tests/support/tree';

const start = appsForEachTest();
const dirs = dirsRemovedAfterEachTest();

const get = (t: TestApp, url: string, as?: string) => t.app.inject({ method: 'GET', url, headers: { 'x-auth': t.token(as) } });

/** Writes an archive body to a temp file and returns its path. */
async function saved(body: Buffer, name: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'filemgr-archive-'));
  dirs.push(dir);
  const file = join(dir, name);
  await writeFile(file, body);
  return file;
}

/** Member names as the format's standard tool lists them, sorted, without a directory's trailing '/'. */
async function members(body: Buffer, algo: string): Promise<string[]> {
  const listing =
    algo === 'zip'
      ? execFileSync('unzip', ['-Z1', await saved(body, 'a.zip')], { encoding: 'utf8' })
      : execFileSync('tar', [`-t${algo === 'targz' ? 'z' : ''}f`, '-'], { input: body, encoding: 'utf8' });
  return listing.split('\n').filter(Boolean).map((name) => name.replace(/\/$/, '')).sort();
}

/** Extracts an archive with the standard tool and returns the extraction directory. */
async function extracted(body: Buffer, algo: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'filemgr-extract-'));
  dirs.push(dir);
  if (algo === 'zip') execFileSync('unzip', ['-q', await saved(body, 'a.zip'), '-d', dir]);
  else execFileSync('tar', [`-x${algo === 'targz' ? 'z' : ''}f`, '-', '-C', dir], { input: body });
  return dir;
}

const TREE = {
  'docs/a.txt': 'alpha',
  'docs/sub/b.txt': 'bravo',
  'docs/empty/': null,
  'docs/.hidden': 'dot',
  'other/c.txt': 'charlie',
  'top.txt': 'top',
} as const;

describe('GET /api/raw of a folder: formats', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ tree: { ...TREE } });
  });
  afterAll(() => t.close());

  it.each(['zip', 'tar', 'targz'])('streams a %s that the standard tool lists and extracts byte for byte', async (algo) => {
    const res = await get(t, `/api/raw/docs?algo=${algo}`);
    expect(res.statusCode).toBe(200);
    expect(await members(res.rawPayload, algo)).toEqual(['.hidden', 'a.txt', 'empty', 'sub', 'sub/b.txt']);
    const out = await extracted(res.rawPayload, algo);
    expect(await readFile(join(out, 'a.txt'), 'utf8')).toBe('alpha');
    expect(await readFile(join(out, 'sub/b.txt'), 'utf8')).toBe('bravo');
    expect(await readdir(join(out, 'empty'))).toEqual([]);
  });

  it.each([
    ['zip', 'docs.zip', 'application/zip'],
    ['', 'docs.zip', 'application/zip'],
    ['true', 'docs.zip', 'application/zip'],
    ['tar', 'docs.tar', 'application/x-tar'],
    ['targz', 'docs.tar.gz', 'application/gzip'],
    ['tarbz2', 'docs.tar.bz2', 'application/x-bzip2'],
    ['tarxz', 'docs.tar.xz', 'application/x-xz'],
    ['tarlz4', 'docs.tar.lz4', 'application/x-lz4'],
    ['tarsz', 'docs.tar.sz', 'application/x-snappy-framed'],
    ['tarbr', 'docs.tar.br', 'application/x-brotli'],
    ['tarzst', 'docs.tar.zst', 'application/zstd'],
  ])('names algo=%j %j with type %j', async (algo, name, type) => {
    const res = await t.app.inject({ method: 'HEAD', url: `/api/raw/docs?algo=${algo}`, headers: { 'x-auth': t.token() } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe(`attachment; filename*=utf-8''${name}`);
    expect(res.headers['content-type']).toBe(type);
    expect(res.body).toBe('');
  });

  it.each([
    ['tarbz2', ['bzip2', '-dc']],
    ['tarxz', ['xz', '-dc']],
    ['tarlz4', ['lz4', '-dc']],
    ['tarbr', ['brotli', '-dc']],
    ['tarzst', ['zstd', '-dc']],
  ])('streams a %s that its command-line tool decompresses into a valid tar', async (algo, [tool, ...args]) => {
    const res = await get(t, `/api/raw/docs?algo=${algo}`);
    const tar = execFileSync(tool!, args, { input: res.rawPayload });
    expect(await members(tar, 'tar')).toEqual(['.hidden', 'a.txt', 'empty', 'sub', 'sub/b.txt']);
  });

  it('starts a tarsz with the snappy framing stream identifier', async () => {
    const res = await get(t, '/api/raw/docs?algo=tarsz');
    expect(res.rawPayload.subarray(0, 10)).toEqual(Buffer.from([0xff, 0x06, 0x00, 0x00, 0x73, 0x4e, 0x61, 0x50, 0x70, 0x59]));
  });
});

describe('GET /api/raw of a folder: selections and names', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ tree: { ...TREE, 'a+b/plus.txt': 'plus', 'x,y.txt': 'comma', 'sp ace.txt': 'space' } });
  });
  afterAll(() => t.close());

  const files = (...paths: string[]) => encodeURIComponent(paths.map((p) => p.split('/').map(encodeURIComponent).join('/')).join(','));

  it('archives several selected paths under their names, prefixing the download name with "_"', async () => {
    const res = await get(t, `/api/raw/?algo=tar&files=${files('/docs/a.txt', '/docs/sub')}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe("attachment; filename*=utf-8''_docs.tar");
    expect(await members(res.rawPayload, 'tar')).toEqual(['a.txt', 'sub', 'sub/b.txt']);
  });

  it('names selections from different folders relative to the root, after the scope directory', async () => {
    const res = await get(t, `/api/raw/?algo=tar&files=${files('/docs/a.txt', '/other', '/top.txt')}`);
    expect(res.headers['content-disposition']).toBe(`attachment; filename*=utf-8''${encodeURIComponent(`_${t.root.split('/').pop()!}`)}.tar`);
    expect(await members(res.rawPayload, 'tar')).toEqual(['docs/a.txt', 'other', 'other/c.txt', 'top.txt']);
  });

  it('archives one selected file under its own name', async () => {
    const res = await get(t, `/api/raw/?algo=tar&files=${files('/docs/sub/b.txt')}`);
    expect(res.headers['content-disposition']).toBe("attachment; filename*=utf-8''b.txt.tar");
    expect(await members(res.rawPayload, 'tar')).toEqual(['b.txt']);
  });

  it('keeps "+" and "," inside selected names and decodes spaces', async () => {
    const res = await get(t, `/api/raw/?algo=tar&files=${files('/a+b/plus.txt', '/x,y.txt', '/sp ace.txt')}`);
    expect(res.statusCode).toBe(200);
    expect(await members(res.rawPayload, 'tar')).toEqual(['a+b/plus.txt', 'sp ace.txt', 'x,y.txt']);
  });

  it('names the archive of the whole root after the scope directory', async () => {
    const res = await get(t, '/api/raw/?algo=zip');
    expect(res.headers['content-disposition']).toBe(`attachment; filename*=utf-8''${t.root.split('/').pop()!}.zip`);
    expect(await members(res.rawPayload, 'zip')).toContain('docs/sub/b.txt');
  });

  it.each([
    ['an unknown algo', '/api/raw/docs?algo=rar', '400 Bad Request (unsupported archive format rar)\n'],
    ['files that fail to decode', '/api/raw/?files=%25zz', '400 Bad Request (invalid files selection: malformed percent-encoding)\n'],
    ['a ".." in a selection', `/api/raw/docs?files=${encodeURIComponent('../top.txt')}`, '400 Bad Request (invalid files selection: ".." is not allowed)\n'],
    ['a missing selection', `/api/raw/?files=${encodeURIComponent('/docs/nope.txt')}`, '404 Not Found\n'],
    ['a missing folder', '/api/raw/nowhere/?algo=zip', '404 Not Found\n'],
  ])('answers %s with a status body, never a 500', async (_name, url, body) => {
    const res = await get(t, url);
    expect(res.statusCode).toBe(Number(body.slice(0, 3)));
    expect(res.body).toBe(body);
  });
});

describe('GET /api/raw of a folder: what is never archived', () => {
  it('skips members a rule denies and dotfiles of a user who hides them, and refuses a denied selection', async () => {
    const t = await start({
      tree: { ...TREE, 'docs/secret/s.txt': 'nope' },
      settings: (s) => {
        s.rules = [{ regex: false, allow: false, path: '/docs/secret', regexp: null }];
      },
    });
    await t.addUser({ username: 'tidy', hideDotfiles: true, perm: { download: true } });
    const res = await get(t, '/api/raw/docs?algo=tar', 'tidy');
    expect(res.statusCode).toBe(200);
    expect(await members(res.rawPayload, 'tar')).toEqual(['a.txt', 'empty', 'sub', 'sub/b.txt']);
    expect((await get(t, `/api/raw/?algo=tar&files=${encodeURIComponent('/docs/secret')}`)).statusCode).toBe(403);
    expect((await get(t, '/api/raw/docs/secret/?algo=zip')).statusCode).toBe(403);
  });

  it('never follows a symlink out of the scope, but archives one that stays inside', async () => {
    const outside = await makeTree({ 'secret.txt': 'symlink-secret', 'dir/inner.txt': 'symlink-secret' });
    dirs.push(outside);
    const t = await start({
      tree: {
        'shared/ok.txt': 'ok',
        'shared/file-out': { symlink: join(outside, 'secret.txt') },
        'shared/dir-out': { symlink: join(outside, 'dir') },
        'shared/file-in': { symlink: '../private/p.txt' },
        'private/p.txt': 'in-scope',
      },
    });
    const res = await get(t, '/api/raw/shared?algo=tar');
    expect(await members(res.rawPayload, 'tar')).toEqual(['file-in', 'ok.txt']);
    expect(res.rawPayload.includes('symlink-secret')).toBe(false);
    const out = await extracted(res.rawPayload, 'tar');
    expect(await readFile(join(out, 'file-in'), 'utf8')).toBe('in-scope');
  });

  it('follows a symlinked folder once and never loops on a link to an ancestor', async () => {
    const t = await start({ tree: { 'a/f.txt': 'f', 'a/up': { symlink: '..' }, 'a/again': { symlink: '.' }, 'b/g.txt': 'g' } });
    const res = await get(t, '/api/raw/a?algo=tar');
    expect(res.statusCode).toBe(200);
    // 'again' is 'a' itself and 'up/a' is 'a' again: both would loop, neither is followed.
    expect(await members(res.rawPayload, 'tar')).toEqual(['f.txt', 'up', 'up/b', 'up/b/g.txt']);
  });

  it("leaves out the server's database and temporary upload files", async () => {
    const root = await makeTree({ 'filemgr.json': '{"key":"db-secret"}', '.filemgr-tmp-upload': 'partial', 'keep.txt': 'k' });
    dirs.push(root);
    const t = await start({ config: { root, databasePath: join(root, 'filemgr.json') } });
    const res = await get(t, '/api/raw/?algo=tar');
    expect(await members(res.rawPayload, 'tar')).toEqual(['keep.txt']);
    expect(res.rawPayload.includes('db-secret')).toBe(false);
  });

  it('neutralises a backslash name and keeps the archive valid (raw_test ziptest)', async () => {
    const t = await start({ tree: { 'ziptest/..\\..\\evil.sh': 'echo evil', 'ziptest/fine.txt': 'fine' } });
    const res = await get(t, '/api/raw/ziptest?algo=zip');
    expect(res.statusCode).toBe(200);
    const names = await members(res.rawPayload, 'zip');
    expect(names).toEqual(['.._.._evil.sh', 'fine.txt']);
    for (const name of names) {
      expect(name.startsWith('/')).toBe(false);
      expect(name.split('/')).not.toContain('..');
    }
  });
});

describe('GET /api/raw of a folder: the client going away', () => {
  it('stops reading the disk and closes the file it was archiving', async () => {
    const t = await start({ tree: { 'big/': null } });
    await writeFile(join(t.root, 'big/huge.bin'), Buffer.alloc(64 * 1024 * 1024, 7));
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const openIntoRoot = async (): Promise<number> => {
      let count = 0;
      for (const fd of await readdir('/proc/self/fd')) {
        const target = await readlink(`/proc/self/fd/${fd}`).catch(() => '');
        if (target.startsWith(t.root)) count++;
      }
      return count;
    };
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest({ port, path: '/api/raw/big?algo=tar', headers: { 'x-auth': t.token() } }, (res) => {
        res.once('data', () => {
          // The client reads one chunk and leaves: the server is mid-file.
          void openIntoRoot().then((n) => {
            expect(n).toBe(1);
            req.destroy();
            resolve();
          }, reject);
        });
      });
      req.on('error', () => undefined);
      req.end();
    });
    let open = 1;
    for (let i = 0; i < 50 && open > 0; i++) {
      await new Promise((r) => setTimeout(r, 40));
      open = await openIntoRoot();
    }
    expect(open).toBe(0);
  });
});
