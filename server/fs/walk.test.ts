import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTree, type Tree } from '../../tests/support/tree';
import { TEMP_PREFIX } from './hidden';
import { createGate, type GateOptions } from './scope';
import { walk, type WalkOptions } from './walk';

const roots: string[] = [];
afterEach(async () => {
  await Promise.all(roots.splice(0).map((r) => rm(r, { recursive: true, force: true })));
});

async function paths(tree: Tree, opts: { gate?: Partial<GateOptions>; walk?: WalkOptions } = {}): Promise<string[]> {
  const base = await makeTree(tree);
  roots.push(base);
  const gate = await createGate({ root: join(base, 'scope'), followExternalSymlinks: false, ...opts.gate });
  const out: string[] = [];
  for await (const e of walk(gate, await gate.resolve('/'), opts.walk)) out.push(`${e.depth}:${e.path}`);
  return out;
}

describe('walk', () => {
  it('goes depth-first in bytewise name order, without the root', async () => {
    expect(await paths({ 'scope/b/x.txt': '', 'scope/a.txt': '', 'scope/B.txt': '', 'scope/b/a/y': '' })).toEqual([
      '1:/B.txt', '1:/a.txt', '1:/b', '2:/b/a', '3:/b/a/y', '2:/b/x.txt',
    ]);
  });

  it('yields in-scope symlinks without descending, skips escaping ones and temporary files', async () => {
    const tree: Tree = {
      'scope/d/f': '',
      'scope/in': { symlink: 'd' },
      'scope/out': { symlink: '../outside' },
      [`scope/${TEMP_PREFIX}1`]: '',
      'outside/secret': '',
    };
    expect(await paths(tree)).toEqual(['1:/d', '2:/d/f', '1:/in']);
  });

  it('skips a denied directory with its subtree, or only itself with enterDenied', async () => {
    const tree: Tree = { 'scope/.git/config': '', 'scope/src/a': '' };
    const gate = { allows: (p: string) => !p.split('/').pop()!.startsWith('.') };
    expect(await paths(tree, { gate })).toEqual(['1:/src', '2:/src/a']);
    expect(await paths(tree, { gate, walk: { enterDenied: true } })).toEqual(['2:/.git/config', '1:/src', '2:/src/a']);
    expect(await paths(tree, { gate, walk: { unchecked: true } })).toEqual(['1:/.git', '2:/.git/config', '1:/src', '2:/src/a']);
  });

  it('stops when the signal aborts', async () => {
    const aborted = new AbortController();
    aborted.abort();
    expect(await paths({ 'scope/a': '', 'scope/b': '' }, { walk: { signal: aborted.signal } })).toEqual([]);
  });
});
