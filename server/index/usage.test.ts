import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { dirsRemovedAfterEachTest } from '../../tests/support/per-test';
import { makeTree } from '../../tests/support/tree';
import { watchTreeChanges } from '../fs/changes';
import { defaultServerConfig } from '../config';
import { createGateFactory } from '../fs/gates';
import { moveTree } from '../fs/copy-move';
import { removeTree, writeFileAtomic } from '../fs/write';
import { workerCode } from '../lib/worker-code';
import { INDEX_WORKER } from './build-protocol';
import { startSearchIndex, type SearchIndex } from './search-index';

const code = workerCode(INDEX_WORKER);
const quiet = { info: () => undefined, warn: () => undefined };
const dirs = dirsRemovedAfterEachTest();
const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
});

/** An index of a fresh tree, told of every change made through server/fs. */
async function indexed(tree: Parameters<typeof makeTree>[0]): Promise<{ root: string; index: SearchIndex }> {
  const root = await makeTree(tree);
  dirs.push(root);
  const index = await startSearchIndex({ root, dir: '', intervalMs: 0, workerCode: code, skip: [join(root, '.filemgr-trash')], log: quiet });
  const unwatch = watchTreeChanges((change) => index.changed(change));
  closing.push(async () => {
    unwatch();
    await index.close();
  });
  await index.built();
  expect(index.ready()).toBe(true);
  return { root, index };
}

const gateOf = async (root: string) => (await createGateFactory(defaultServerConfig({ root }))).forUser({ scope: '/', rules: [], hideDotfiles: false, perm: { admin: true } } as never, { rules: [] } as never);
const modes = { fileMode: 0o640, dirMode: 0o750 };

describe('usage totals from the index (quotas, beyond.md §6)', () => {
  it('sums the files below a folder, and nothing of folders beside it', async () => {
    const { root, index } = await indexed({ 'u/a.bin': Buffer.alloc(1000), 'u/sub/b.bin': Buffer.alloc(234), 'v/c.bin': Buffer.alloc(5000) });
    expect(await index.bytesBelow(join(root, 'u'))).toBe(1234);
    expect(await index.bytesBelow(join(root, 'v'))).toBe(5000);
    expect(await index.bytesBelow(root)).toBe(6234);
    expect(await index.bytesBelow(join(root, 'missing'))).toBeNull();
  });

  it('keeps each known total current through writes, replacements, moves between folders and deletes', async () => {
    const { root, index } = await indexed({ 'u/a.bin': Buffer.alloc(1000), 'v/c.bin': Buffer.alloc(5000) });
    const u = join(root, 'u');
    const v = join(root, 'v');
    expect(await index.bytesBelow(u)).toBe(1000);
    expect(await index.bytesBelow(v)).toBe(5000);
    const gate = await gateOf(root);
    await writeFileAtomic(await gate.resolve('/u/new/n.bin', 'write'), Readable.from([Buffer.alloc(300)]), modes);
    expect(await index.bytesBelow(u)).toBe(1300);
    await writeFileAtomic(await gate.resolve('/u/a.bin', 'write'), Readable.from([Buffer.alloc(10)]), modes);
    expect(await index.bytesBelow(u)).toBe(310);
    await moveTree(gate, { src: await gate.resolve('/u/new'), dst: await gate.resolve('/v/new', 'write') }, modes);
    expect(await index.bytesBelow(u)).toBe(10);
    expect(await index.bytesBelow(v)).toBe(5300);
    await removeTree(await gate.resolve('/v/new', 'write'), () => false);
    expect(await index.bytesBelow(v)).toBe(5000);
    expect(await index.bytesBelow(root)).toBe(5010);
  });

  it('takes in changes made outside at the next rescan', async () => {
    const { root, index } = await indexed({ 'u/a.bin': Buffer.alloc(1000) });
    const u = join(root, 'u');
    expect(await index.bytesBelow(u)).toBe(1000);
    await mkdir(join(u, 'outside'));
    await writeFile(join(u, 'outside', 'x.bin'), Buffer.alloc(77));
    await rm(join(u, 'a.bin'));
    expect(await index.bytesBelow(u)).toBe(1000);
    expect(await index.rescanNow()).toBeGreaterThan(0);
    expect(await index.bytesBelow(u)).toBe(77);
  });
});
