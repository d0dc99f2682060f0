import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { appsForEachTest } from '../../tests/support/per-test';
import type { TestApp } from '../../tests/support/test-app';
import { copyTree, moveTree } from '../fs/copy-move';
import { createGateFactory } from '../fs/gates';
import { makeDirectory, removeTree, writeFileAtomic } from '../fs/write';
import { watchTreeChanges } from '../fs/changes';
import { placeIfFree } from '../fs/place-new';
import { moveEntry } from '../fs/trash-bin';
import { placeStaged } from '../archive/unpack/place';
import { workerCode } from '../lib/worker-code';
import { createSearchService } from '../resources/search/service';
import type { UserRecord } from '../state/schema';
import { INDEX_WORKER } from './build-protocol';
import { startSearchIndex, type SearchIndex } from './search-index';

const start = appsForEachTest();
const code = workerCode(INDEX_WORKER);
const quiet = { info: () => undefined, warn: () => undefined };

/** A tree with what makes search results differ: case, unicode, dots, hidden and denied names, links in and out. */
const TREE = {
  'Photos/Summer Trip.JPG': 'x',
  'Photos/beach.png': 'xx',
  'Photos/.hidden-trip.png': 'x',
  'Photos/deep/deeper/trip-notes.txt': 'x',
  'Music/song.mp3': 'x',
  'Music/trip-mix.flac': 'x',
  'Docs/Report 2024.pdf': 'x',
  'Docs/report-draft.PDF': 'x',
  'Docs/Résumé été.txt': 'x',
  'Docs/100%_done.txt': 'x',
  'Docs/trip/': null,
  'secret/trip-plans.txt': 'x',
  'secret/inner/trip.txt': 'x',
  'a-b/x.txt': 'x',
  'a/b.txt': 'x',
  'link-in': { symlink: 'Photos' },
  'link-out': { symlink: '/etc' },
  'trip-link.txt': { symlink: 'Music/song.mp3' },
  'cache/thumbs/trip.png': 'x',
  'state.db': '{}',
  'movie.mkv': 'x',
} as const;

/** A tree of `n` entries with names from a small alphabet (so queries hit), folders, dotfiles and links. */
function randomTree(seed: number, n: number): Record<string, string | null | { symlink: string }> {
  let state = seed * 2654435761;
  const next = (k: number): number => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state % k;
  };
  const letters = ['a', 'b', 'A', 'B', 'c', 'é', 'É', '0', '1', '.', '-', ' ', 'x', 't'];
  const name = (): string => Array.from({ length: 1 + next(6) }, () => letters[next(letters.length)]!).join('').trim() || 'n';
  const dirs = [''];
  const tree: Record<string, string | null | { symlink: string }> = {};
  for (let i = 0; i < n; i++) {
    const parent = dirs[next(dirs.length)]!;
    const path = `${parent}${parent ? '/' : ''}${name()}${i % 7 === 0 ? '.txt' : ''}`;
    if (Object.keys(tree).some((k) => k === path || k.startsWith(`${path}/`) || path.startsWith(`${k}/`))) continue;
    const roll = next(10);
    if (roll < 3) {
      tree[path] = null;
      dirs.push(path);
    } else if (roll === 3) tree[path] = { symlink: next(2) === 0 ? '/etc' : '.' };
    else tree[path] = 'x';
  }
  return tree;
}

const QUERIES = ['trip', 'TRIP', 'case:sensitive Trip', 'r', 're', 'report', 'type:image', 'type:txt trip', 'type:video', '"report 2024"', 'résumé', 'été', '100%_', 'x y', '', 'nothing-matches-this'];

async function searchBody(t: TestApp, index: SearchIndex | undefined, where: { user: UserRecord; path: string; query: string }): Promise<string> {
  const service = createSearchService({ gates: await createGateFactory(t.config), store: t.store, index });
  const { user, ...request } = where;
  try {
    return await text(await service.search(user, { ...request, signal: new AbortController().signal }));
  } catch (err) {
    return `failed: ${(err as { code?: string }).code ?? String(err)}`;
  }
}

/** The index of the test's root; `inlineUpTo` 0 builds it in the worker, whatever its size. */
async function indexOf(t: TestApp, dir = '', inlineUpTo?: number): Promise<SearchIndex> {
  const index = await startSearchIndex({ root: t.root, dir, intervalMs: 0, workerCode: code, skip: [join(t.root, 'cache')], log: quiet, inlineUpTo });
  await index.built();
  expect(index.ready()).toBe(true);
  return index;
}

describe('the search index (beyond.md §7)', () => {
  it('answers every query exactly as the walk does: scope, rules, hidden files, links, order', async () => {
    const t = await start({ tree: { ...TREE }, config: { cacheDir: '', databasePath: '' } });
    const config = { ...t.config, cacheDir: join(t.root, 'cache'), databasePath: join(t.root, 'state.db') };
    Object.assign(t.config, config);
    await t.store.update((db) => {
      db.settings.rules = [{ allow: false, path: '/secret/inner', regex: false, regexp: { raw: '' } }];
    });
    const index = await indexOf(t, '', 0);
    try {
      const admin = t.store.data().users[0]!;
      const scoped = await t.addUser({ username: 'ann', scope: '/Photos', hideDotfiles: true });
      const paths = ['/', '/deep', '/Docs', '/secret', '/link-in', '/nowhere'];
      const cases = [admin, scoped].flatMap((user) => paths.flatMap((path) => QUERIES.map((query) => ({ user, path, query }))));
      for (const where of cases) {
        expect(await searchBody(t, index, where), `${where.user.username} ${where.path} ${where.query}`).toBe(await searchBody(t, undefined, where));
      }
      expect(await searchBody(t, index, { user: admin, path: '/', query: 'trip' })).toContain('"path":"Photos/deep/deeper/trip-notes.txt"');
      // The index answered (the walk answers only when it cannot).
      expect(await index.find(t.root, { terms: ['trip'], matches: (n) => n.toLowerCase().includes('trip'), signal: new AbortController().signal })).toHaveLength(8);
    } finally {
      await index.close();
    }
  });

  it.each([
    [1, 'its own thread'],
    [2, 'the worker'],
    [3, 'its own thread'],
  ])('answers as the walk does on a random tree (seed %i, built in %s)', async (seed, where) => {
    const t = await start({ tree: randomTree(seed, 400) });
    await t.store.update((db) => {
      db.settings.rules = [{ allow: false, path: '', regex: true, regexp: { raw: 'b[0-9]' } }];
    });
    const index = await indexOf(t, '', where === 'the worker' ? 0 : undefined);
    try {
      const user = await t.addUser({ username: 'bob', scope: '/', hideDotfiles: seed % 2 === 1 });
      for (const query of ['a', 'ab', 'abc', 'Ab', 'case:sensitive A', 'é', 'x.t', 'type:txt', '.', '0', '']) {
        expect(await searchBody(t, index, { user, path: '/', query }), query).toBe(await searchBody(t, undefined, { user, path: '/', query }));
      }
    } finally {
      await index.close();
    }
  });

  it('sees what filemgr changes before the change returns: writes, folders, moves, copies, removals', async () => {
    const t = await start({ tree: { 'docs/old.txt': 'x' } });
    const index = await indexOf(t);
    const unwatch = watchTreeChanges((change) => index.changed(change));
    try {
      const admin = t.store.data().users[0]!;
      const gate = await (await createGateFactory(t.config)).forUser(admin, t.store.data().settings);
      const find = async (query: string) => (await searchBody(t, index, { user: admin, path: '/', query })).trim().split('\n').filter(Boolean);
      await writeFileAtomic(await gate.resolve('/docs/new-report.txt'), Readable.from(['hello']), { fileMode: 0o644, dirMode: 0o755 });
      expect(await find('report')).toEqual(['{"dir":false,"path":"docs/new-report.txt"}']);
      await makeDirectory(await gate.resolve('/projects/2026/reports'), 0o755);
      expect(await find('reports')).toEqual(['{"dir":true,"path":"projects/2026/reports"}']);
      await moveTree(gate, { src: await gate.resolve('/docs'), dst: await gate.resolve('/projects/docs-moved') }, { fileMode: 0o644, dirMode: 0o755 });
      expect(await find('old')).toEqual(['{"dir":false,"path":"projects/docs-moved/old.txt"}']);
      await copyTree(gate, { src: await gate.resolve('/projects/docs-moved'), dst: await gate.resolve('/copy') }, { fileMode: 0o644, dirMode: 0o755 });
      expect(await find('old')).toEqual(['{"dir":false,"path":"copy/old.txt"}', '{"dir":false,"path":"projects/docs-moved/old.txt"}']);
      await removeTree(await gate.resolve('/projects'), () => false);
      expect(await find('old')).toEqual(['{"dir":false,"path":"copy/old.txt"}']);
      expect(await find('report')).toEqual(['{"dir":false,"path":"copy/new-report.txt"}']);
    } finally {
      unwatch();
      await index.close();
    }
  });

  it('follows the recycle bin, upload links and extraction, and never indexes the bin', async () => {
    const t = await start({ tree: { 'docs/report.txt': 'x', '.filemgr-trash/1/': null, 'in/.filemgr-tmp-upload': 'x', 'in/.filemgr-tmp-stage/got/extracted-report.txt': 'x' } });
    const index = await startSearchIndex({ root: t.root, dir: '', intervalMs: 0, workerCode: code, skip: [join(t.root, '.filemgr-trash')], log: quiet });
    await index.built();
    const unwatch = watchTreeChanges((change) => index.changed(change));
    try {
      const admin = t.store.data().users[0]!;
      const find = async (query: string) => (await searchBody(t, index, { user: admin, path: '/', query })).trim().split('\n').filter(Boolean);
      await moveEntry(join(t.root, 'docs'), join(t.root, '.filemgr-trash/1/docs'));
      expect(await find('report')).toEqual([]);
      const raw = await index.find(t.root, { terms: ['report'], matches: () => true, signal: new AbortController().signal });
      expect(raw?.map((hit) => hit.rel)).toEqual(['in/.filemgr-tmp-stage/got/extracted-report.txt']);
      await moveEntry(join(t.root, '.filemgr-trash/1/docs'), join(t.root, 'docs'));
      expect(await find('report')).toEqual(['{"dir":false,"path":"docs/report.txt"}']);
      expect(await placeIfFree(join(t.root, 'in/.filemgr-tmp-upload'), join(t.root, 'in/sent-report.txt'))).toBe(true);
      await placeStaged(join(t.root, 'in/.filemgr-tmp-stage'), join(t.root, 'in'), true);
      expect(await find('report')).toEqual(['{"dir":false,"path":"docs/report.txt"}', '{"dir":false,"path":"in/got/extracted-report.txt"}', '{"dir":false,"path":"in/sent-report.txt"}']);
    } finally {
      unwatch();
      await index.close();
    }
  });

  it('finds changes made outside filemgr at the next rescan, reading only folders whose time changed', async () => {
    const t = await start({ tree: { 'a/one.txt': 'x', 'b/two.txt': 'x', 'c/three.txt': 'x' } });
    const index = await indexOf(t);
    try {
      const admin = t.store.data().users[0]!;
      const find = (query: string) => searchBody(t, index, { user: admin, path: '/', query });
      expect(await index.rescanNow()).toBe(0);
      await writeFile(join(t.root, 'a', 'outside.txt'), 'x');
      await mkdir(join(t.root, 'new', 'deep'), { recursive: true });
      await writeFile(join(t.root, 'new', 'deep', 'outside-deep.txt'), 'x');
      await rm(join(t.root, 'b'), { recursive: true });
      await symlink('a', join(t.root, 'outside-link'));
      expect(await find('outside')).toBe('');
      // The root (new, b gone, the link) and a (a new file): c and the rest are not read again.
      expect(await index.rescanNow()).toBe(2);
      expect(await find('outside')).toBe('{"dir":false,"path":"a/outside.txt"}\n{"dir":false,"path":"new/deep/outside-deep.txt"}\n{"dir":false,"path":"outside-link"}\n');
      expect(await find('two')).toBe('');
      expect(await find('outside')).toBe(await searchBody(t, undefined, { user: admin, path: '/', query: 'outside' }));
    } finally {
      await index.close();
    }
  });

  it('keeps its file in the cache folder, reuses it at the next start and rebuilds it when corrupt', async () => {
    const t = await start({ tree: { 'kept.txt': 'x' } });
    const dir = join(t.root, 'cache', 'index');
    await (await indexOf(t, dir)).close();
    await writeFile(join(t.root, 'added-while-stopped.txt'), 'x');
    const reopened = await startSearchIndex({ root: t.root, dir, intervalMs: 0, workerCode: code, skip: [join(t.root, 'cache')], log: quiet });
    // Used at once (no build), brought up to date by a rescan.
    expect(reopened.ready()).toBe(true);
    await reopened.rescanNow();
    const admin = t.store.data().users[0]!;
    expect(await searchBody(t, reopened, { user: admin, path: '/', query: 'added' })).toBe('{"dir":false,"path":"added-while-stopped.txt"}\n');
    await reopened.close();
    await writeFile(join(dir, 'search-index.sqlite'), 'not a database at all');
    await rm(join(dir, 'search-index.sqlite-wal'), { force: true });
    const rebuilt = await indexOf(t, dir);
    try {
      expect(await searchBody(t, rebuilt, { user: admin, path: '/', query: 'kept' })).toBe('{"dir":false,"path":"kept.txt"}\n');
    } finally {
      await rebuilt.close();
    }
  });

  it('builds a tree of up to inlineUpTo entries in its own thread (skipped folders not counted), a larger one in the worker', async () => {
    const t = await start({ tree: { 'a.txt': 'x', 'b/c.txt': 'x', 'cache/one.png': 'x', 'cache/two.png': 'x' } });
    const warnings: string[] = [];
    const noWorker = () => Promise.reject(new Error('no worker here'));
    const open = async (inlineUpTo: number) => {
      const log = { info: () => undefined, warn: (_err: unknown, message: string) => void warnings.push(message) };
      const index = await startSearchIndex({ root: t.root, dir: '', intervalMs: 0, workerCode: noWorker, skip: [join(t.root, 'cache')], log, inlineUpTo });
      await index.built();
      const ready = index.ready();
      await index.close();
      return ready;
    };
    // a.txt, b and b/c.txt: 3 entries.
    expect(await open(3)).toBe(true);
    expect(warnings).toEqual([]);
    expect(await open(2)).toBe(false);
    expect(warnings).toEqual(['search index not built; searches walk the disk']);
  });
});
