import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { emptyDatabase } from './initial';
import { createStoreShareCounters } from './share-counters';
import { openFileStore } from './store';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

/** A state file holding link 'h' (limit 3) and upload link 'u'. */
async function stateFile(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'filemgr-counters-'));
  dirs.push(dir);
  const path = join(dir, 'filemgr.json');
  const { store } = await openFileStore(path, () => emptyDatabase());
  await store.update((db) => {
    db.shares.push({ hash: 'h', path: '/f', userID: 1, expire: 0, maxDownloads: 3 }, { hash: 'u', path: '/in/', userID: 1, expire: 0, kind: 'upload' });
  });
  return path;
}

describe('ShareCounters on the state store', () => {
  it('keeps the counts in the share records, so they survive a restart', async () => {
    const path = await stateFile();
    const first = createStoreShareCounters((await openFileStore(path)).store);
    expect(await first.takeDownload('h', 3)).toBe(true);
    expect(await first.takeDownload('h', 3)).toBe(true);
    await first.countUpload('u');
    // A new process reads the file afresh.
    const { store } = await openFileStore(path);
    expect(store.data().shares).toEqual([expect.objectContaining({ hash: 'h', downloads: 2 }), expect.objectContaining({ hash: 'u', uploads: 1 })]);
    const second = createStoreShareCounters(store);
    expect(await second.takeDownload('h', 3)).toBe(true);
    expect(await second.takeDownload('h', 3)).toBe(false);
    expect((await openFileStore(path)).store.data().shares[0]?.downloads).toBe(3);
  });

  it('gives exactly the downloads left to concurrent callers', async () => {
    const counters = createStoreShareCounters((await openFileStore(await stateFile())).store);
    const answers = await Promise.all(Array.from({ length: 20 }, () => counters.takeDownload('h', 3)));
    expect(answers.filter(Boolean)).toHaveLength(3);
  });

  it('counts an unlimited link without a bound, in one write a moment later or at flush', async () => {
    const path = await stateFile();
    const counters = createStoreShareCounters((await openFileStore(path)).store, { flushMs: 60_000 });
    for (let i = 0; i < 5; i++) expect(await counters.takeDownload('u', 0)).toBe(true);
    expect((await openFileStore(path)).store.data().shares[1]?.downloads).toBeUndefined();
    await counters.flush();
    expect((await openFileStore(path)).store.data().shares[1]?.downloads).toBe(5);
    expect(await counters.takeDownload('gone', 1)).toBe(false);
    await counters.countUpload('gone');
  });

  it('writes the gathered counts by itself after flushMs', async () => {
    const path = await stateFile();
    const counters = createStoreShareCounters((await openFileStore(path)).store, { flushMs: 20 });
    await counters.takeDownload('u', 0);
    await expect.poll(async () => (await openFileStore(path)).store.data().shares[1]?.downloads).toBe(1);
  });
});
