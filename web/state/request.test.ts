import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createStore } from 'jotai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FIRST_ITEMS } from '../api/resources';
import { configureHttp } from '../api/http';
import { filesPathOf, requestEarly } from './early-listing';
import { arrivingAtom, itemsAtom } from './listing';
import { loadResourceAtom, requestAtom } from './request';

// A server whose folder answers are written by the test, piece by piece.
let server: Server;
const waiting = new Map<string, ServerResponse[]>();

function item(i: number) {
  const name = `f-${String(i).padStart(4, '0')}`;
  return { path: `/big/${name}`, name, size: 0, extension: '', modified: '2026-01-01T00:00:00Z', mode: 420, isDir: false, isSymlink: false, type: 'blob' };
}

/** A folder's answer as the server writes it: items first. */
function folderText(path: string, items: readonly object[], extra: object = {}): string {
  return JSON.stringify({ items, numDirs: 0, numFiles: items.length, ...extra, path, name: path.slice(1, -1), isDir: true });
}

const ITEMS = Array.from({ length: 600 }, (_, i) => item(i));
const WHOLE = folderText('/big/', ITEMS);
// The first pieces end just after the 300th item and its comma: more items are known to follow.
const CUT = WHOLE.indexOf(`{"path":"/big/f-0300"`);

/** The next answer to a request for `url`, once the page has asked. */
async function answer(url: string): Promise<ServerResponse> {
  for (;;) {
    const res = waiting.get(url)?.shift();
    if (res) return res;
    await new Promise((r) => setTimeout(r, 5));
  }
}

beforeAll(async () => {
  server = createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.flushHeaders();
    const list = waiting.get(req.url ?? '') ?? [];
    list.push(res);
    waiting.set(req.url ?? '', list);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  configureHttp({ baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, token: () => 't', onUnauthorized: () => undefined, onRenewRequested: () => undefined });
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => waiting.clear());

/** Loads `path` into the store, its answer `body` written whole. */
async function loadWhole(store: ReturnType<typeof createStore>, path: string, body: string): Promise<void> {
  const done = store.set(loadResourceAtom, path);
  (await answer(`/api/resources${path}`)).end(body);
  await done;
}

async function until(probe: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !probe(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(probe()).toBe(true);
}

describe('loadResourceAtom', () => {
  it('shows a large folder\'s first items while the rest arrives, then the whole folder', async () => {
    const store = createStore();
    const done = store.set(loadResourceAtom, '/big/');
    const res = await answer('/api/resources/big/');
    res.write(WHOLE.slice(0, CUT));
    await until(() => store.get(requestAtom).firstItems !== null);
    expect(store.get(requestAtom)).toMatchObject({ path: '/big/', status: 'loading', resource: null });
    expect(store.get(requestAtom).firstItems).toEqual(ITEMS.slice(0, 300));
    expect(store.get(arrivingAtom)).toBe(true);
    expect(store.get(itemsAtom)).toHaveLength(300);
    res.end(WHOLE.slice(CUT));
    await done;
    expect(store.get(requestAtom)).toMatchObject({ status: 'ready', firstItems: null });
    expect(store.get(arrivingAtom)).toBe(false);
    expect(store.get(itemsAtom)).toEqual(ITEMS);
  });

  it('shows a folder that arrives whole once, without first items', async () => {
    const store = createStore();
    const seen: unknown[] = [];
    store.sub(requestAtom, () => seen.push(store.get(requestAtom).firstItems));
    await loadWhole(store, '/big/', WHOLE);
    expect(seen.every((first) => first === null)).toBe(true);
    expect(store.get(itemsAtom)).toHaveLength(600);
  });

  it(`needs ${FIRST_ITEMS} items and one more to begin before it shows any`, async () => {
    const store = createStore();
    const done = store.set(loadResourceAtom, '/big/');
    const res = await answer('/api/resources/big/');
    const upTo = WHOLE.indexOf(`{"path":"/big/f-${String(FIRST_ITEMS).padStart(4, '0')}"`);
    res.write(WHOLE.slice(0, upTo - 1));
    await new Promise((r) => setTimeout(r, 50));
    expect(store.get(requestAtom).firstItems).toBeNull();
    res.write(WHOLE.slice(upTo - 1, upTo));
    await until(() => store.get(requestAtom).firstItems?.length === FIRST_ITEMS);
    res.end(WHOLE.slice(upTo));
    await done;
  });

  it('lets only the latest request write: an older answer for the same path arriving later is dropped', async () => {
    const store = createStore();
    const first = store.set(loadResourceAtom, '/big/');
    const older = await answer('/api/resources/big/');
    const second = store.set(loadResourceAtom, '/big/');
    const newer = await answer('/api/resources/big/');
    newer.end(folderText('/big/', ITEMS.slice(0, 2)));
    await second;
    older.write(WHOLE.slice(0, CUT));
    older.end(WHOLE.slice(CUT));
    await first;
    expect(store.get(requestAtom).firstItems).toBeNull();
    expect(store.get(itemsAtom)).toHaveLength(2);
  });

  it('decodes names whose UTF-8 bytes are split between two pieces', async () => {
    const named = ITEMS.map((item, i) => ({ ...item, name: `é😀${i}`, path: `/big/é😀${i}` }));
    const bytes = Buffer.from(folderText('/big/', named));
    // Cut inside the emoji of the 301st item: its first two bytes end the first piece.
    const cut = bytes.indexOf(Buffer.from('😀300')) + 2;
    const store = createStore();
    const done = store.set(loadResourceAtom, '/big/');
    const res = await answer('/api/resources/big/');
    res.write(bytes.subarray(0, cut));
    await until(() => store.get(requestAtom).firstItems !== null);
    expect(store.get(requestAtom).firstItems).toEqual(named.slice(0, 300));
    res.end(bytes.subarray(cut));
    await done;
    expect(store.get(itemsAtom)).toEqual(named);
  });

  it('after a folder sorted by size, shows the next large folder only whole (a subfolder may come last)', async () => {
    const store = createStore();
    await loadWhole(store, '/small/', folderText('/small/', [], { sorting: { by: 'size', asc: false } }));
    const seen: unknown[] = [];
    store.sub(requestAtom, () => seen.push(store.get(requestAtom).firstItems));
    const done = store.set(loadResourceAtom, '/big/');
    const res = await answer('/api/resources/big/');
    res.write(WHOLE.slice(0, CUT));
    await new Promise((r) => setTimeout(r, 50));
    expect(store.get(requestAtom)).toMatchObject({ path: '/big/', status: 'loading', firstItems: null });
    res.end(WHOLE.slice(CUT));
    await done;
    expect(seen.every((items) => items === null)).toBe(true);
    // By name again: the next large folder shows its first items early.
    await loadWhole(store, '/small/', folderText('/small/', [], { sorting: { by: 'name', asc: false } }));
    const last = store.set(loadResourceAtom, '/big/');
    const next = await answer('/api/resources/big/');
    next.write(WHOLE.slice(0, CUT));
    await until(() => store.get(requestAtom).firstItems !== null);
    next.end(WHOLE.slice(CUT));
    await last;
  });

  it('a connection lost midway is an error, and the first items go', async () => {
    const store = createStore();
    const done = store.set(loadResourceAtom, '/big/');
    const res = await answer('/api/resources/big/');
    res.write(WHOLE.slice(0, CUT));
    await until(() => store.get(requestAtom).firstItems !== null);
    res.destroy();
    await done;
    expect(store.get(requestAtom)).toMatchObject({ status: 'error', errorStatus: 0, firstItems: null, resource: null });
    expect(store.get(itemsAtom)).toHaveLength(0);
  });

  it('takes the answer requested early for its path, with first items that came before it was taken', async () => {
    requestEarly('/big/');
    const res = await answer('/api/resources/big/');
    res.write(WHOLE.slice(0, CUT));
    await new Promise((r) => setTimeout(r, 50));
    const store = createStore();
    // Resolves only with the early answer: a request of its own would never be answered.
    const done = store.set(loadResourceAtom, '/big/');
    await until(() => store.get(requestAtom).firstItems?.length === 300);
    res.end(WHOLE.slice(CUT));
    await done;
    expect(store.get(itemsAtom)).toEqual(ITEMS);
  });

  it('drops an early answer for another path, and uses an early answer once', async () => {
    requestEarly('/small/');
    const store = createStore();
    await loadWhole(store, '/big/', WHOLE);
    (await answer('/api/resources/small/')).end(folderText('/small/', []));
    await loadWhole(store, '/small/', folderText('/small/', ITEMS.slice(0, 1)));
    expect(store.get(itemsAtom)).toHaveLength(1);
  });
});

describe('filesPathOf', () => {
  it.each([
    ['/files/', '', '/'],
    ['/files', '', '/'],
    ['/files/a%20b/', '', '/a b/'],
    ['/fm/files/docs/', '/fm', '/docs/'],
    ['/filesx/', '', null],
    ['/settings/profile', '', null],
    ['/share/abc', '/fm', null],
  ])('%s under base %j is %j', (pathname, base, expected) => {
    expect(filesPathOf(pathname, base)).toBe(expected);
  });
});
