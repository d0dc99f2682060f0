import { mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { noAssets } from '../../lib/assets';
import { buildTestApp, type TestApp } from '../../../tests/support/test-app';
import { buildTusTestApp, bytes, tusTestClient } from '../../../tests/support/tus-client';

let t: TestApp;
const { tus, as, create, patch, namesIn, temps } = tusTestClient(() => t);

beforeEach(async () => {
  t = await buildTusTestApp();
});

afterEach(async () => {
  await t.close();
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
    // The only instance restarts and what it kept in process is gone: the state stays, the shared
    // upload records (kept in PostgreSQL by the server-pg run, where they would lapse by their own
    // TTL) are left out, so the temporary files on disk are all there is.
    t.app = await buildApp({ store: t.store, config: { ...t.config, databaseUrl: undefined }, assets: noAssets(), logger: false });
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

describe('an upload in progress', () => {
  it('is invisible in the listing of its folder', async () => {
    await create('/folder/big.bin', 10);
    await patch('/folder/big.bin', 0, 'abc');
    const res = await t.app.inject({ method: 'GET', url: '/api/resources/folder/', headers: { 'x-auth': t.token() } });
    const listing = res.json<{ items: { name: string }[] }>();
    expect(listing.items.map((i) => i.name)).toEqual(['keep.txt']);
    expect(await temps('folder')).toHaveLength(1);
  });

  it('answers 400 when a folder took the place of its target, and can still be aborted', async () => {
    const { mkdir } = await import('node:fs/promises');
    await create('/x.bin', 3);
    await mkdir(join(t.root, 'x.bin'));
    const res = await patch('/x.bin', 0, 'abc');
    expect(res.statusCode).toBe(400);
    expect(res.body).toBe('400 Bad Request (cannot upload to a directory x.bin)\n');
    expect((await tus('DELETE', '/x.bin')).statusCode).toBe(204);
    expect(await temps()).toEqual([]);
  });
});
