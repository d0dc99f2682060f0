import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildIndexFile, buildIndexFileInSlices } from './build-tree';
import { openIndexDb } from './index-db';

/** `folders` folders of `files` files below a new temp root. */
async function tree(folders: number, files: number): Promise<{ root: string; out: string }> {
  const base = await mkdtemp(join(tmpdir(), 'filemgr-slices-'));
  const root = join(base, 'root');
  for (let f = 0; f < folders; f++) {
    mkdirSync(join(root, `folder-${f}`), { recursive: true });
    for (let i = 0; i < files; i++) writeFileSync(join(root, `folder-${f}`, `file-${i}.txt`), `${f}-${i}`);
  }
  mkdirSync(join(base, 'out'));
  return { root, out: join(base, 'out') };
}

function rowsOf(file: string): string[] {
  const db = openIndexDb(file);
  try {
    return (db.prepare('SELECT id, parent, name, kind, size FROM entries ORDER BY id').all() as object[]).map((r) => JSON.stringify(r));
  } finally {
    db.close();
  }
}

describe('buildIndexFileInSlices', () => {
  it('gives the event loop turns while it builds, and builds what the synchronous build does', async () => {
    const { root, out } = await tree(30, 20);
    let turns = 0;
    const ticker = setInterval(() => turns++, 0);
    const sliced = await buildIndexFileInSlices({ root, file: join(out, 'sliced.db'), skip: [] }, { sliceMs: 0, aborted: () => false });
    clearInterval(ticker);
    expect(turns).toBeGreaterThan(5);
    const whole = buildIndexFile({ root, file: join(out, 'whole.db'), skip: [] });
    expect(sliced?.entries).toBe(whole.entries);
    expect(sliced?.entries).toBe(1 + 30 + 30 * 20);
    expect(rowsOf(join(out, 'sliced.db'))).toEqual(rowsOf(join(out, 'whole.db')));
  });

  it('stops when aborted, leaving no index in place', async () => {
    const { root, out } = await tree(10, 5);
    let asked = 0;
    const result = await buildIndexFileInSlices({ root, file: join(out, 'index.db'), skip: [] }, { sliceMs: 0, aborted: () => ++asked > 2 });
    expect(result).toBeUndefined();
    expect(existsSync(join(out, 'index.db'))).toBe(false);
    // The next build starts over from its own partial file.
    const again = await buildIndexFileInSlices({ root, file: join(out, 'index.db'), skip: [] }, { sliceMs: 0, aborted: () => false });
    expect(again?.entries).toBe(1 + 10 + 10 * 5);
  });
});
