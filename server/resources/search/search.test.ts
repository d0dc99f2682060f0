import { createHook } from 'node:async_hooks';
import { mkdir, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appsForEachTest, dirsRemovedAfterEachTest } from '../../../tests/support/per-test';
import { buildTestApp, type TestApp } from '../../../tests/support/test-app';
import { makeTree } from '../../../tests/support/tree';
import { createGateFactory } from '../../fs/gates';
import { createSearchService } from './service';

const start = appsForEachTest();
const dirs = dirsRemovedAfterEachTest();

const search = (t: TestApp, url: string, as?: string) => t.app.inject({ method: 'GET', url, headers: { 'x-auth': t.token(as) } });

/** The result lines of a search body (the keep-alive empty line excluded). */
const lines = (body: string): { dir: boolean; path: string }[] =>
  body
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { dir: boolean; path: string });
const paths = (body: string): string[] => lines(body).map((r) => r.path);

const TREE = {
  'Photos/Summer Trip.JPG': 'x',
  'Photos/beach.png': 'x',
  'Photos/notes.txt': 'x',
  'Music/song.mp3': 'x',
  'Music/trip-mix.flac': 'x',
  'Docs/Report 2024.pdf': 'x',
  'Docs/report-draft.PDF': 'x',
  'Docs/archive.tar.gz': 'x',
  'Docs/trip/': null,
  'movie.mkv': 'x',
} as const;

describe('GET /api/search', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ tree: { ...TREE } });
  });
  afterAll(() => t.close());

  it('streams {"dir","path"} lines relative to the search root, in lexical walk order', async () => {
    const res = await search(t, '/api/search/?query=trip');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.body).toBe(
      '{"dir":true,"path":"Docs/trip"}\n{"dir":false,"path":"Music/trip-mix.flac"}\n{"dir":false,"path":"Photos/Summer Trip.JPG"}\n',
    );
  });

  it('adds each match\'s size and modified time with details=1 (filemgr\'s addition), and only then', async () => {
    const res = await search(t, '/api/search/Music/?query=song&details=1');
    const [hit] = lines(res.body) as { dir: boolean; path: string; size: number; modified: string }[];
    expect(hit).toMatchObject({ dir: false, path: 'song.mp3', size: 1 });
    expect(Date.parse(hit?.modified ?? '')).toBeGreaterThan(Date.parse('2020-01-01'));
    expect((await search(t, '/api/search/Music/?query=song')).body).toBe('{"dir":false,"path":"song.mp3"}\n');
  });

  it('searches below the requested folder only', async () => {
    const res = await search(t, '/api/search/Docs/?query=report');
    expect(paths(res.body)).toEqual(['Report 2024.pdf', 'report-draft.PDF']);
  });

  it.each([
    ['case:sensitive report', ['Docs/report-draft.PDF']],
    ['case:sensitive Report', ['Docs/Report 2024.pdf']],
    ['"summer trip"', ['Photos/Summer Trip.JPG']],
    ['summer trip', ['Docs/trip', 'Music/trip-mix.flac', 'Photos/Summer Trip.JPG']],
    ['song beach', ['Music/song.mp3', 'Photos/beach.png']],
    ['type:image', ['Photos/Summer Trip.JPG', 'Photos/beach.png']],
    ['type:audio', ['Music/song.mp3', 'Music/trip-mix.flac']],
    ['type:music song', ['Music/song.mp3']],
    ['type:video', ['movie.mkv']],
    ['type:pdf', ['Docs/Report 2024.pdf']],
    ['type:gz', ['Docs/archive.tar.gz']],
    ['type:image type:video', ['Photos/Summer Trip.JPG', 'Photos/beach.png', 'movie.mkv']],
    ['docs', ['Docs']],
    ['nothing-like-this', []],
  ])('answers the query %j with %j', async (query, expected) => {
    const res = await search(t, `/api/search/?query=${encodeURIComponent(query)}`);
    expect(paths(res.body)).toEqual(expected);
  });

  it('lists everything for an empty query', async () => {
    const res = await search(t, '/api/search/');
    expect(lines(res.body)).toHaveLength(13);
  });

  it.each([
    ['a missing folder', '/api/search/nowhere/?query=a', 404],
    ['a file (nothing below it)', '/api/search/movie.mkv?query=movie', 200],
  ])('answers %s with %d', async (_name, url, status) => {
    const res = await search(t, url);
    expect(res.statusCode).toBe(status);
    if (status === 200) expect(res.body).toBe('');
  });

  it('answers 401 without a token and redirects the bare prefix', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/search/?query=a' })).statusCode).toBe(401);
    const bare = await search(t, '/api/search');
    expect(bare.statusCode).toBe(301);
    expect(bare.headers.location).toBe('/api/search/');
  });
});

describe('GET /api/search: what is never found', () => {
  it('tests only the base name for dotfiles: .git is hidden, .git/config is not', async () => {
    const t = await start({ tree: { '.git/config': 'x', '.gitignore': 'x', 'src/.env': 'x', 'src/conf.ts': 'x' } });
    await t.addUser({ username: 'tidy', hideDotfiles: true });
    expect(paths((await search(t, '/api/search/?query=conf', 'tidy')).body)).toEqual(['.git/config', 'src/conf.ts']);
    expect(paths((await search(t, '/api/search/?query=.', 'tidy')).body)).toEqual(['src/conf.ts']);
    expect(paths((await search(t, '/api/search/?query=.git')).body)).toEqual(['.git', '.gitignore']);
  });

  it('skips a denied folder but still checks its children one by one', async () => {
    const t = await start({
      tree: { 'private/open.txt': 'x', 'private/secret.txt': 'x' },
      settings: (s) => {
        s.rules = [
          { regex: true, allow: false, path: '', regexp: { raw: '^/private$' } },
          { regex: true, allow: false, path: '', regexp: { raw: 'secret' } },
        ];
      },
    });
    await t.addUser({ username: 'bob' });
    expect(paths((await search(t, '/api/search/?query=', 'bob')).body)).toEqual(['private/open.txt']);
  });

  it('hides escaping symlinks, lists in-scope ones as files, and never enters them', async () => {
    const outside = await makeTree({ 'outside-match.txt': 'x' });
    dirs.push(outside);
    const t = await start({ tree: { 'in/match.txt': 'x', 'link-out': { symlink: outside }, 'link-in': { symlink: 'in' }, 'match-out': { symlink: join(outside, 'outside-match.txt') } } });
    const res = await search(t, '/api/search/?query=');
    expect(lines(res.body)).toEqual([
      { dir: true, path: 'in' },
      { dir: false, path: 'in/match.txt' },
      { dir: false, path: 'link-in' },
    ]);
  });

  it("never shows the server's database, cache folder or temporary uploads", async () => {
    const root = await makeTree({ 'filemgr.json': '{}', 'cache/abc/preview.jpg': 'x', '.filemgr-tmp-up': 'x', 'keep.txt': 'x' });
    dirs.push(root);
    const t = await start({ config: { root, databasePath: join(root, 'filemgr.json'), cacheDir: join(root, 'cache') } });
    expect(paths((await search(t, '/api/search/?query=')).body)).toEqual(['keep.txt']);
  });
});

describe('search service: the keep-alive line', () => {
  it('writes one empty line when the search is still running after the heartbeat delay', async () => {
    // A chain of 300 nested folders: each must be read before the next is known, so the walk
    // outlasts a 1 ms heartbeat by far.
    const chain = Array.from({ length: 300 }, () => 'n').join('/');
    const t = await start({ tree: { [`${chain}/match.txt`]: '', 'match-top.txt': '' } });
    const service = createSearchService({ gates: await createGateFactory(t.config), store: t.store, heartbeatMs: 1 });
    const stream = await service.search(t.store.data().users[0]!, { path: '/', query: 'match', signal: new AbortController().signal });
    const body = await text(stream);
    // One empty line is the keep-alive; the other is what follows the final newline.
    expect(body.split('\n').filter((line) => line === '')).toHaveLength(2);
    expect(paths(body)).toEqual(['match-top.txt', `${chain}/match.txt`]);
  });

  it('writes no keep-alive line when the search ends before the delay', async () => {
    const t = await start({ tree: { 'a.txt': '' } });
    const service = createSearchService({ gates: await createGateFactory(t.config), store: t.store, heartbeatMs: 100 });
    const stream = await service.search(t.store.data().users[0]!, { path: '/', query: 'a', signal: new AbortController().signal });
    const body = await text(stream);
    await new Promise((r) => setTimeout(r, 200));
    expect(body).toBe('{"dir":false,"path":"a.txt"}\n');
  });
});

describe('GET /api/search: the client going away', () => {
  it('stops the walk: far fewer directories are read than the tree holds', async () => {
    const t = await start();
    for (let i = 0; i < 3000; i++) await mkdir(join(t.root, `d${i}`, 'inner'), { recursive: true });
    await writeFile(join(t.root, 'd0', 'x.txt'), '');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    let reads = 0;
    const hook = createHook({
      init(_id, type) {
        if (type === 'FSREQPROMISE') reads++;
      },
    }).enable();
    try {
      await new Promise<void>((resolve) => {
        // Nothing matches, so nothing is written: only the abort can stop this walk early.
        const req = httpRequest({ port, path: '/api/search/?query=no-such-name', headers: { 'x-auth': t.token() } });
        req.on('error', () => resolve());
        req.end();
        setTimeout(() => {
          req.destroy();
          resolve();
        }, 30);
      });
      const atAbort = reads;
      await new Promise((r) => setTimeout(r, 500));
      expect(reads - atAbort).toBeLessThan(50);
      expect(reads).toBeLessThan(6000);
    } finally {
      hook.disable();
    }
  });
});
