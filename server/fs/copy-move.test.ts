import { lstat, readdir, readFile, rm, stat, chmod } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTree, type Tree } from '../../tests/support/tree';
import { copyTree, moveTree } from './copy-move';
import { hiddenFilesOf, TEMP_PREFIX } from './hidden';
import { createGate, type PathGate } from './scope';

const roots: string[] = [];
afterEach(async () => {
  await Promise.all(roots.splice(0).map((r) => rm(r, { recursive: true, force: true })));
});

const modes = { fileMode: 0o640, dirMode: 0o750 };

async function setup(tree: Tree): Promise<{ base: string; root: string; gate: PathGate }> {
  const base = await makeTree(tree);
  roots.push(base);
  const root = join(base, 'scope');
  return { base, root, gate: await createGate({ root, followExternalSymlinks: false }) };
}

async function pair(gate: PathGate, src: string, dst: string) {
  return { src: await gate.resolve(src, 'write'), dst: await gate.resolve(dst, 'write') };
}

const exists = (p: string) => lstat(p).then(() => true, () => false);

describe('copyTree', () => {
  it('copies a tree, keeping file modes and merging into an existing directory', async () => {
    const { root, gate } = await setup({ 'scope/src/a.txt': 'A', 'scope/src/sub/b.txt': 'B', 'scope/dst/old.txt': 'O' });
    await chmod(join(root, 'src/a.txt'), 0o600);
    await copyTree(gate, await pair(gate, '/src', '/dst'), modes);
    expect(await readFile(join(root, 'dst/a.txt'), 'utf8')).toBe('A');
    expect(await readFile(join(root, 'dst/sub/b.txt'), 'utf8')).toBe('B');
    expect(await readFile(join(root, 'dst/old.txt'), 'utf8')).toBe('O');
    expect((await stat(join(root, 'dst/a.txt'))).mode & 0o777).toBe(0o600);
    expect((await readdir(join(root, 'dst'))).filter((n) => n.startsWith(TEMP_PREFIX))).toEqual([]);
  });

  it('copies an in-scope symlink to a file as a regular file', async () => {
    const { root, gate } = await setup({ 'scope/real/f.txt': 'in-scope', 'scope/srcdir/link.txt': { symlink: '../real/f.txt' } });
    await copyTree(gate, await pair(gate, '/srcdir', '/dstdir'), modes);
    const copied = join(root, 'dstdir/link.txt');
    expect((await lstat(copied)).isSymbolicLink()).toBe(false);
    expect(await readFile(copied, 'utf8')).toBe('in-scope');
  });

  it('refuses (403) a tree with an escaping symlink and never copies its content', async () => {
    const { root, gate } = await setup({
      'outside/secret.txt': 'secret',
      'scope/srcdir/link.txt': { symlink: '../../outside/secret.txt' },
      'scope/srcdir/ok.txt': 'readable',
    });
    await expect(copyTree(gate, await pair(gate, '/srcdir', '/dstdir'), modes)).rejects.toMatchObject({ code: 'forbidden' });
    expect(await exists(join(root, 'dstdir/link.txt'))).toBe(false);
    expect(await readFile(join(root, 'dstdir/ok.txt'), 'utf8')).toBe('readable');
  });

  it('fails on a symlink to a directory but still copies the readable siblings', async () => {
    const { root, gate } = await setup({ 'scope/real/x.txt': 'x', 'scope/srcdir/dirlink': { symlink: '../real' }, 'scope/srcdir/ok.txt': 'readable' });
    await expect(copyTree(gate, await pair(gate, '/srcdir', '/dstdir'), modes)).rejects.toMatchObject({ code: 'bad_request' });
    expect(await readFile(join(root, 'dstdir/ok.txt'), 'utf8')).toBe('readable');
  });

  it("leaves the server's own files and temporary files out of a copy", async () => {
    const base = await makeTree({ 'scope/src/a.txt': 'A', 'scope/src/filemgr.json': '{}', 'scope/src/.filemgr-tmp-1': 'partial' });
    roots.push(base);
    const root = join(base, 'scope');
    const gate = await createGate({ root, followExternalSymlinks: false, hidden: await hiddenFilesOf({ databasePath: join(root, 'src/filemgr.json'), cacheDir: '' }) });
    await copyTree(gate, await pair(gate, '/src', '/dst'), modes);
    expect(await readdir(join(root, 'dst'))).toEqual(['a.txt']);
  });

  it('refuses to copy a file onto itself (400)', async () => {
    const { root, gate } = await setup({ 'scope/a.txt': 'A' });
    await expect(copyTree(gate, await pair(gate, '/a.txt', '/a.txt'), modes)).rejects.toMatchObject({ code: 'bad_request' });
    expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('A');
  });
});

describe('moveTree', () => {
  it('renames a directory', async () => {
    const { root, gate } = await setup({ 'scope/a/f.txt': 'F' });
    await moveTree(gate, await pair(gate, '/a', '/b/c'), modes);
    expect(await readFile(join(root, 'b/c/f.txt'), 'utf8')).toBe('F');
    expect(await exists(join(root, 'a'))).toBe(false);
  });

  it('moves a symlink itself, not its target', async () => {
    const { root, gate } = await setup({ 'scope/t.txt': 'T', 'scope/l': { symlink: 't.txt' } });
    await moveTree(gate, await pair(gate, '/l', '/m'), modes);
    expect((await lstat(join(root, 'm'))).isSymbolicLink()).toBe(true);
    expect(await readFile(join(root, 't.txt'), 'utf8')).toBe('T');
  });

  it('falls back to copy and remove across devices (EXDEV)', async () => {
    const { root, gate } = await setup({ 'scope/a/f.txt': 'F' });
    const exdev = () => Promise.reject(Object.assign(new Error('EXDEV: cross-device link not permitted'), { code: 'EXDEV' }));
    await moveTree(gate, await pair(gate, '/a', '/b'), { ...modes, rename: exdev });
    expect(await readFile(join(root, 'b/f.txt'), 'utf8')).toBe('F');
    expect(await exists(join(root, 'a'))).toBe(false);
  });

  it('removes the partial copy and keeps the source when the cross-device copy fails', async () => {
    const { root, gate } = await setup({ 'outside/s': 's', 'scope/a/f.txt': 'F', 'scope/a/bad': { symlink: '../../outside/s' } });
    const exdev = () => Promise.reject(Object.assign(new Error('EXDEV'), { code: 'EXDEV' }));
    await expect(moveTree(gate, await pair(gate, '/a', '/b'), { ...modes, rename: exdev })).rejects.toMatchObject({ code: 'forbidden' });
    expect(await exists(join(root, 'b'))).toBe(false);
    expect(await readFile(join(root, 'a/f.txt'), 'utf8')).toBe('F');
  });

  it('merges into a non-empty destination directory (override) and removes the source', async () => {
    const { root, gate } = await setup({ 'scope/a/new.txt': 'N', 'scope/b/old.txt': 'O' });
    await moveTree(gate, await pair(gate, '/a', '/b'), modes);
    expect((await readdir(join(root, 'b'))).sort()).toEqual(['new.txt', 'old.txt']);
    expect(await exists(join(root, 'a'))).toBe(false);
  });

  it('answers 409 when a directory would replace a file', async () => {
    const { root, gate } = await setup({ 'scope/a/x': 'x', 'scope/f': 'file' });
    await expect(moveTree(gate, await pair(gate, '/a', '/f'), modes)).rejects.toMatchObject({ code: 'exists' });
    expect(await readFile(join(root, 'f'), 'utf8')).toBe('file');
  });
});
