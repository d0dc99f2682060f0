import { lstat, mkdir, readFile, readlink, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dirsRemovedAfterEachTest } from '../../tests/support/per-test';
import { makeTree } from '../../tests/support/tree';
import { moveEntry, treeBytes } from './trash-bin';

const dirs = dirsRemovedAfterEachTest();
const exists = (p: string) => lstat(p).then(() => true, () => false);
const exdev = (): Promise<void> => Promise.reject(Object.assign(new Error('cross-device link not permitted'), { code: 'EXDEV' }));

async function tree(): Promise<string> {
  const root = await makeTree({ 'src/a.txt': 'A', 'src/sub/b.txt': 'BB' });
  dirs.push(root);
  await symlink('a.txt', join(root, 'src/link'));
  await mkdir(join(root, 'bin'));
  return root;
}

describe('moveEntry', () => {
  it.each([
    ['one rename', undefined],
    ['a copy then delete across filesystems (EXDEV)', exdev],
  ])('moves a tree by %s, links kept as links', async (_label, rename) => {
    const root = await tree();
    await moveEntry(join(root, 'src'), join(root, 'bin/src'), rename);
    expect(await exists(join(root, 'src'))).toBe(false);
    expect(await readFile(join(root, 'bin/src/sub/b.txt'), 'utf8')).toBe('BB');
    expect(await readlink(join(root, 'bin/src/link'))).toBe('a.txt');
  });

  it('answers 409 when the target exists, leaving both alone', async () => {
    const root = await tree();
    await writeFile(join(root, 'bin/src'), 'there');
    await expect(moveEntry(join(root, 'src'), join(root, 'bin/src'))).rejects.toMatchObject({ code: 'exists' });
    expect(await readFile(join(root, 'src/a.txt'), 'utf8')).toBe('A');
  });

  it('answers 404 for a missing source', async () => {
    const root = await tree();
    await expect(moveEntry(join(root, 'nope'), join(root, 'bin/nope'))).rejects.toMatchObject({ code: 'not_found' });
  });
});

describe('treeBytes', () => {
  it('counts the files of a tree, not what links point to', async () => {
    const root = await tree();
    expect(await treeBytes(join(root, 'src'))).toBe(3);
    expect(await treeBytes(join(root, 'src/a.txt'))).toBe(1);
    expect(await treeBytes(join(root, 'missing'))).toBe(0);
  });
});
