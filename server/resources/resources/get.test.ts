import { appsForEachTest } from '../../../tests/support/per-test';
import { createHash } from 'node:crypto';
import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createGateFactory } from '../../fs/gates';
import { TEMP_PREFIX } from '../../fs/hidden';
import { createHookRunner } from '../../hooks/hooks';
import { createResourcesService } from './service';
import { call, userWith } from '../../../tests/support/resource-calls';

const start = appsForEachTest();

type Json = Record<string, unknown> & { items?: Record<string, unknown>[] };
const json = (body: string) => JSON.parse(body) as Json;
const names = (body: string) => (json(body).items ?? []).map((i) => i.name);

describe('GET /api/resources: a directory', () => {
  it('answers the listing with every field of api.md 4.3', async () => {
    const t = await start({ tree: { 'docs/a.txt': 'hello', 'docs/sub/': null } });
    await chmod(join(t.root, 'docs'), 0o755);
    await chmod(join(t.root, 'docs/a.txt'), 0o644);
    const res = await call(t, { method: 'GET', url: '/api/resources/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const body = json(res.body);
    expect(body).toMatchObject({ path: '/docs', name: 'docs', extension: '', mode: 2147484141, isDir: true, isSymlink: false, type: '', numDirs: 1, numFiles: 1, sorting: { by: 'name', asc: false } });
    expect(body.modified).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?(Z|[+-]\d\d:\d\d)$/);
    expect(body.items?.[1]).toEqual({ path: '/docs/a.txt', name: 'a.txt', size: 5, extension: '.txt', modified: expect.any(String) as unknown, mode: 420, isDir: false, isSymlink: false, type: 'text' });
    expect(body.items?.[0]).toMatchObject({ path: '/docs/sub', name: 'sub', isDir: true, type: '' });
    expect(body.items?.[1]).not.toHaveProperty('content');
  });

  it('never exposes the name of the scope directory at the root', async () => {
    const t = await start({ tree: { 'a.txt': 'x' } });
    const body = json((await call(t, { method: 'GET', url: '/api/resources/' })).body);
    expect(body.name).toBe('');
    expect(body.path).toBe('/');
  });

  it.each([
    ['/api/resources', '/api/resources/'],
    ['/api/resources/recursive', '/api/resources/recursive/'],
  ])('redirects the bare prefix %s to %s', async (url, location) => {
    const t = await start();
    const res = await call(t, { method: 'GET', url });
    expect(res.statusCode).toBe(301);
    expect(res.headers.location).toBe(location);
  });

  it('sorts by the user sorting, names naturally with directories first', async () => {
    const t = await start({ tree: { 'f10.txt': '', 'f2.txt': '', 'F1.txt': '', 'zdir/': null, 'adir/': null } });
    expect(names((await call(t, { method: 'GET', url: '/api/resources/' })).body)).toEqual(['adir', 'zdir', 'F1.txt', 'f2.txt', 'f10.txt']);
    await t.store.update((db) => {
      const admin = db.users[0];
      if (admin) admin.sorting = { by: 'name', asc: true };
    });
    expect(names((await call(t, { method: 'GET', url: '/api/resources/' })).body)).toEqual(['zdir', 'adir', 'f10.txt', 'f2.txt', 'F1.txt']);
  });

  it('omits escaping symlinks, keeps in-scope ones with their target info, marks dangling ones invalid_link', async () => {
    const t = await start({
      tree: {
        'scope/real.txt': 'twelve bytes',
        'scope/in': { symlink: 'real.txt' },
        'scope/out': { symlink: '../outside' },
        'scope/gone': { symlink: 'missing.txt' },
        'outside/secret.txt': 'secret',
      },
    });
    const bob = await userWith(t, 'bob', 'download');
    await t.store.update((db) => {
      const u = db.users.find((x) => x.username === 'bob');
      if (u) u.scope = '/scope';
    });
    const body = json((await call(t, { method: 'GET', url: '/api/resources/', as: bob })).body);
    const byName: Record<string, Record<string, unknown>> = Object.fromEntries((body.items ?? []).map((i) => [String(i.name), i]));
    expect(Object.keys(byName).sort()).toEqual(['gone', 'in', 'real.txt']);
    expect(byName.in).toMatchObject({ isSymlink: true, size: 12, type: 'text', mode: byName['real.txt']?.mode });
    expect(byName.gone).toMatchObject({ isSymlink: true, type: 'invalid_link' });
    expect(body.numFiles).toBe(3);
  });

  it('lists an escaping symlink with followExternalSymlinks', async () => {
    const t = await start({ tree: { 'scope/out': { symlink: '../outside' }, 'outside/data.txt': 'payload' }, config: { followExternalSymlinks: true } });
    await t.store.update((db) => {
      db.users[0]!.scope = '/scope';
    });
    expect(names((await call(t, { method: 'GET', url: '/api/resources/' })).body)).toEqual(['out']);
    expect(json((await call(t, { method: 'GET', url: '/api/resources/out/data.txt' })).body).content).toBe('payload');
  });

  it('hides temporary files, the database and the cache directory', async () => {
    const files = await start({ tree: { 'a.txt': 'x', [`${TEMP_PREFIX}123`]: 'partial', 'filemgr.json': '{}', 'filemgr.json.lock': '1', 'cache/x': 'c' } });
    const t = await start({ config: { root: files.root, databasePath: join(files.root, 'filemgr.json'), cacheDir: join(files.root, 'cache') } });
    expect(names((await call(t, { method: 'GET', url: '/api/resources/' })).body)).toEqual(['a.txt']);
    expect((await call(t, { method: 'GET', url: '/api/resources/filemgr.json' })).statusCode).toBe(404);
    expect((await call(t, { method: 'GET', url: `/api/resources/${TEMP_PREFIX}123` })).statusCode).toBe(404);
    expect((await call(t, { method: 'DELETE', url: '/api/resources/cache' })).statusCode).toBe(403);
    expect((await call(t, { method: 'PUT', url: '/api/resources/filemgr.json', payload: 'pwned' })).statusCode).toBe(403);
    expect((await call(t, { method: 'POST', url: `/api/resources/${TEMP_PREFIX}9`, payload: 'x' })).statusCode).toBe(403);
    const recursive = JSON.parse((await call(t, { method: 'GET', url: '/api/resources/recursive/' })).body) as { path: string }[];
    expect(recursive.map((e) => e.path)).toEqual(['/a.txt']);
  });

  it('leaves out entries denied by rules and dotfiles of a hideDotfiles user', async () => {
    const t = await start({ tree: { 'pub.txt': '', 'secret/x': '', '.env': '' }, settings: (s) => { s.rules = [{ regex: false, allow: false, path: '/secret', regexp: null }]; } });
    await t.store.update((db) => {
      db.users[0]!.hideDotfiles = true;
    });
    expect(names((await call(t, { method: 'GET', url: '/api/resources/' })).body)).toEqual(['pub.txt']);
    expect((await call(t, { method: 'GET', url: '/api/resources/secret' })).statusCode).toBe(403);
    expect((await call(t, { method: 'GET', url: '/api/resources/.env' })).statusCode).toBe(403);
  });

  it('finds subtitles for videos in listings', async () => {
    const t = await start({ tree: { 'v/movie.mp4': 'x', 'v/movie.en.srt': 's', 'v/other.vtt': 'o', 'v/Subs/a.vtt': 'a', 'v/subs2/b.vtt': 'b' } });
    const body = json((await call(t, { method: 'GET', url: '/api/resources/v' })).body);
    const movie = body.items?.find((i) => i.name === 'movie.mp4');
    expect(movie?.subtitles).toEqual(['/v/movie.en.srt', '/v/Subs/a.vtt']);
    expect(body.items?.find((i) => i.name === 'other.vtt')).not.toHaveProperty('subtitles');
  });
});

describe('GET /api/resources: a file', () => {
  it('returns content for a downloadable text file and not without download', async () => {
    const t = await start({ tree: { 'n.txt': 'line one\n' } });
    expect(json((await call(t, { method: 'GET', url: '/api/resources/n.txt' })).body)).toMatchObject({ type: 'text', content: 'line one\n' });
    const viewer = await userWith(t, 'viewer');
    const res = json((await call(t, { method: 'GET', url: '/api/resources/n.txt', as: viewer })).body);
    expect(res.type).toBe('textImmutable');
    expect(res).not.toHaveProperty('content');
    expect(res).not.toHaveProperty('items');
  });

  it.each([
    ['md5', (s: string) => createHash('md5').update(s).digest('hex')],
    ['sha1', (s: string) => createHash('sha1').update(s).digest('hex')],
    ['sha256', (s: string) => createHash('sha256').update(s).digest('hex')],
    ['sha512', (s: string) => createHash('sha512').update(s).digest('hex')],
  ])('answers checksum=%s with the lowercase hex digest and no content', async (algo, digest) => {
    const t = await start({ tree: { 'secret.txt': 'data' } });
    const body = json((await call(t, { method: 'GET', url: `/api/resources/secret.txt?checksum=${algo}` })).body);
    expect(body.checksums).toEqual({ [algo]: digest('data') });
    expect(body).not.toHaveProperty('content');
  });

  it('answers 202 to a checksum request without download permission, and 400 to an unknown algorithm', async () => {
    const t = await start({ tree: { 'secret.txt': 'data' } });
    const nobody = await userWith(t, 'nobody');
    const res = await call(t, { method: 'GET', url: '/api/resources/secret.txt?checksum=sha256', as: nobody });
    expect(res.statusCode).toBe(202);
    expect(res.body).toBe('202 Accepted\n');
    expect(res.body).not.toContain('checksum');
    const bad = await call(t, { method: 'GET', url: '/api/resources/secret.txt?checksum=crc32' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toBe('400 Bad Request\n');
  });

  it('answers X-Encoding with raw bytes for text, the info otherwise, 202 without download', async () => {
    const t = await start({ tree: { 't.csv': 'a,b\n', 'p.png': Buffer.from([0x89, 0x50, 0x4e, 0x47]) } });
    const raw = await call(t, { method: 'GET', url: '/api/resources/t.csv', headers: { 'x-encoding': 'true' } });
    expect(raw.statusCode).toBe(200);
    expect(raw.headers['content-type']).toBe('application/octet-stream');
    expect(raw.body).toBe('a,b\n');
    expect(json((await call(t, { method: 'GET', url: '/api/resources/p.png', headers: { 'x-encoding': 'true' } })).body).type).toBe('image');
    const nobody = await userWith(t, 'nobody');
    expect((await call(t, { method: 'GET', url: '/api/resources/t.csv', headers: { 'x-encoding': 'true' }, as: nobody })).statusCode).toBe(202);
  });

  it('lists the subtitles of a single video', async () => {
    const t = await start({ tree: { 'movie.mkv': 'x', 'movie.srt': 's', 'subtitles/movie/en.ass': 'a' } });
    expect(json((await call(t, { method: 'GET', url: '/api/resources/movie.mkv' })).body).subtitles).toEqual(['/movie.srt', '/subtitles/movie/en.ass']);
  });

  it('finds subtitles of a video inside a dot-folder for a hideDotfiles user', async () => {
    const t = await start({ tree: { '.media/movie.mp4': 'x', '.media/movie.vtt': 'v' } });
    await t.store.update((db) => {
      db.users[0]!.hideDotfiles = true;
    });
    const res = await call(t, { method: 'GET', url: '/api/resources/.media/movie.mp4' });
    expect(json(res.body).subtitles).toEqual(['/.media/movie.vtt']);
  });

  it.each([
    ['model.stl', 'stl'],
    ['mesh.obj', 'obj'],
    ['source.ts', 'text'],
    ['song.mp3', 'audio'],
    ['doc.pdf', 'pdf'],
  ])('types %s as %s', async (name, type) => {
    const t = await start({ tree: { [name]: 'export const a = 1;\n' } });
    expect(json((await call(t, { method: 'GET', url: `/api/resources/${name}` })).body).type).toBe(type);
  });

  it('answers 404 for a missing file', async () => {
    const t = await start();
    const res = await call(t, { method: 'GET', url: '/api/resources/nope.txt' });
    expect(res.statusCode).toBe(404);
    expect(res.body).toBe('404 Not Found\n');
  });

  it('answers 401 without a token', async () => {
    const t = await start({ tree: { 'a.txt': 'x' } });
    expect((await t.app.inject({ method: 'GET', url: '/api/resources/a.txt' })).statusCode).toBe(401);
  });
});

describe('GET /api/resources: path variants (api.md 1.4, 11)', () => {
  const tree = { 'scope/allow/x.txt': 'x', 'scope/Secret.txt': 'top secret', 'scope/a\\b.txt': 'backslash', 'outside/secret.txt': 'outside', 'scope/escape': { symlink: '../outside' } };
  const setup = async () => {
    const t = await start({ tree, settings: (s) => { s.rules = [{ regex: false, allow: false, path: '/Secret.txt', regexp: null }]; } });
    await t.store.update((db) => {
      db.users[0]!.scope = '/scope';
    });
    return t;
  };

  it.each([
    ['/api/resources/allow/../Secret.txt', 403],
    ['/api/resources/allow/%2e%2e/Secret.txt', 403],
    ['/api/resources/allow%2f..%2fSecret.txt', 403],
    ['/api/resources/..%2f..%2foutside/secret.txt', 404],
    ['/api/resources/../../outside/secret.txt', 404],
    ['/api/resources/escape/secret.txt', 403],
    ['/api/resources/escape', 403],
    ['/api/resources/a%00b', 400],
    [`/api/resources/${'n'.repeat(300)}`, 400],
    ['/api/resources/allow/x.txt/deeper', 404],
  ])('answers %s with %i', async (url, status) => {
    const t = await setup();
    const res = await call(t, { method: 'GET', url });
    expect(res.statusCode).toBe(status);
    expect(res.body).not.toContain('outside');
    expect(res.body).not.toContain('top secret');
  });

  it('denies the exact-case path and answers 404 for another case on a case-sensitive disk', async () => {
    const t = await setup();
    expect((await call(t, { method: 'GET', url: '/api/resources/Secret.txt' })).statusCode).toBe(403);
    expect((await call(t, { method: 'GET', url: '/api/resources/secret.TXT' })).statusCode).toBe(404);
  });

  it('treats a backslash as part of the name', async () => {
    const t = await setup();
    const res = await call(t, { method: 'GET', url: '/api/resources/a%5Cb.txt' });
    expect(json(res.body)).toMatchObject({ name: 'a\\b.txt', content: 'backslash' });
  });
});

describe('GET /api/resources/recursive', () => {
  it('writes nothing when the client has already gone', async () => {
    const t = await start({ tree: { 'target/nested/file.txt': 'x' } });
    const gone = new AbortController();
    gone.abort();
    const service = createResourcesService({ store: t.store, config: t.config, gates: await createGateFactory(t.config), hooks: createHookRunner({ enabled: false, settings: () => t.store.data().settings, env: {} }) });
    const admin = t.store.data().users[0]!;
    await expect(service.recursive(admin, { raw: '/target', signal: gone.signal })).resolves.toBeNull();
    await expect(service.recursive(admin, { raw: '/target', signal: new AbortController().signal })).resolves.toHaveLength(2);
  });

  it('lists every entry below the directory, not the directory itself', async () => {
    const t = await start({ tree: { 'target/nested/file.txt': 'x' } });
    const res = await call(t, { method: 'GET', url: '/api/resources/recursive/target' });
    expect(res.statusCode).toBe(200);
    const list = JSON.parse(res.body) as Record<string, unknown>[];
    expect(list.map((e) => e.path)).toEqual(['/target/nested', '/target/nested/file.txt']);
    expect(list[1]).toEqual({ path: '/target/nested/file.txt', name: 'file.txt', size: 1, modified: expect.any(String) as unknown, isDir: false });
  });

  it('skips denied subtrees and escaping symlinks; 400 for a file', async () => {
    const t = await start({
      tree: { 'd/a.txt': '', 'd/secret/b.txt': '', 'd/out': { symlink: '/' }, 'd/z.txt': '' },
      settings: (s) => { s.rules = [{ regex: false, allow: false, path: '/d/secret', regexp: null }]; },
    });
    await writeFile(join(t.root, 'd', `${TEMP_PREFIX}x`), '');
    const list = JSON.parse((await call(t, { method: 'GET', url: '/api/resources/recursive/d' })).body) as { path: string }[];
    expect(list.map((e) => e.path)).toEqual(['/d/a.txt', '/d/z.txt']);
    const file = await call(t, { method: 'GET', url: '/api/resources/recursive/d/a.txt' });
    expect(file.statusCode).toBe(400);
    expect(file.body).toBe('400 Bad Request (path is not a directory)\n');
  });
});
