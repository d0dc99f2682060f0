import { chmod, lstat, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTree } from '../../tests/support/tree';
import type { PositionalFile } from './batched-writer';
import { TEMP_PREFIX } from './hidden';
import { createGate, type PathGate } from './scope';
import { makeDirectory, removeTree, writeFileAtomic } from './write';

const roots: string[] = [];
afterEach(async () => {
  await Promise.all(roots.splice(0).map((r) => rm(r, { recursive: true, force: true })));
});

const modes = { fileMode: 0o640, dirMode: 0o750 };

async function setup(tree: Parameters<typeof makeTree>[0]): Promise<{ base: string; root: string; gate: PathGate }> {
  const base = await makeTree(tree);
  roots.push(base);
  const root = join(base, 'scope');
  await mkdir(root, { recursive: true });
  return { base, root, gate: await createGate({ root, followExternalSymlinks: false }) };
}

/** A body that sends `first` and then fails, like a connection dropped halfway. */
function failingBody(first: string): Readable {
  let sent = false;
  return new Readable({
    read() {
      if (!sent) {
        sent = true;
        this.push(first);
        return;
      }
      this.destroy(new Error('connection reset'));
    },
  });
}

/** A disk that fills up after `room` bytes. */
function fullDisk(room: number): () => PositionalFile {
  return () => {
    let used = 0;
    return {
      writev(buffers: Buffer[]) {
        used += buffers.reduce((sum, b) => sum + b.length, 0);
        if (used > room) return Promise.reject(Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' }));
        return Promise.resolve({ bytesWritten: buffers.reduce((sum, b) => sum + b.length, 0) });
      },
    };
  };
}

const tempsIn = async (dir: string) => (await readdir(dir)).filter((n) => n.startsWith(TEMP_PREFIX));

describe('writeFileAtomic', () => {
  it('creates a file with fileMode and its missing parents with dirMode', async () => {
    const { root, gate } = await setup({});
    const t = await gate.resolve('/a/b/new.txt', 'write');
    const s = await writeFileAtomic(t, Readable.from(['hello']), modes);
    expect(await readFile(join(root, 'a/b/new.txt'), 'utf8')).toBe('hello');
    expect(Number(s.size)).toBe(5);
    expect((await stat(join(root, 'a/b/new.txt'))).mode & 0o777).toBe(0o640 & ~process.umask());
    expect((await stat(join(root, 'a'))).mode & 0o777).toBe(0o750 & ~process.umask());
  });

  it('replaces an existing file and keeps its exact mode', async () => {
    const { root, gate } = await setup({ 'scope/f.txt': 'old' });
    await chmod(join(root, 'f.txt'), 0o604);
    await writeFileAtomic(await gate.resolve('/f.txt', 'write'), Readable.from(['new content']), modes);
    expect(await readFile(join(root, 'f.txt'), 'utf8')).toBe('new content');
    expect((await stat(join(root, 'f.txt'))).mode & 0o7777).toBe(0o604);
    expect(await tempsIn(root)).toEqual([]);
  });

  it('leaves the old content and no temporary file when the body fails halfway', async () => {
    const { root, gate } = await setup({ 'scope/f.txt': 'precious' });
    const t = await gate.resolve('/f.txt', 'write');
    await expect(writeFileAtomic(t, failingBody('half of the new'), modes)).rejects.toThrow('connection reset');
    expect(await readFile(join(root, 'f.txt'), 'utf8')).toBe('precious');
    expect(await tempsIn(root)).toEqual([]);
  });

  it('answers 507 on a full disk and keeps the old content', async () => {
    const { root, gate } = await setup({ 'scope/f.txt': 'precious' });
    const t = await gate.resolve('/f.txt', 'write');
    const body = Readable.from([Buffer.alloc(4096, 1), Buffer.alloc(4096, 2)]);
    await expect(writeFileAtomic(t, body, { ...modes, file: fullDisk(5000) })).rejects.toMatchObject({ code: 'insufficient_storage' });
    expect(await readFile(join(root, 'f.txt'), 'utf8')).toBe('precious');
    expect(await tempsIn(root)).toEqual([]);
  });

  it('refuses to write over a directory (400) and leaves it alone', async () => {
    const { root, gate } = await setup({ 'scope/d/keep.txt': 'k' });
    const t = await gate.resolve('/d', 'write');
    await expect(writeFileAtomic(t, Readable.from(['x']), modes)).rejects.toMatchObject({ code: 'bad_request' });
    expect(await readFile(join(root, 'd/keep.txt'), 'utf8')).toBe('k');
  });

  it('writes through an in-scope symlink into its target', async () => {
    const { root, gate } = await setup({ 'scope/real.txt': 'old', 'scope/link': { symlink: 'real.txt' } });
    await writeFileAtomic(await gate.resolve('/link', 'write'), Readable.from(['via link']), modes);
    expect(await readFile(join(root, 'real.txt'), 'utf8')).toBe('via link');
    expect((await lstat(join(root, 'link'))).isSymbolicLink()).toBe(true);
  });
});

describe('makeDirectory and removeTree', () => {
  it('makes nested directories and accepts an existing one', async () => {
    const { root, gate } = await setup({});
    const t = await gate.resolve('/x/y', 'write');
    await makeDirectory(t, 0o750);
    await makeDirectory(t, 0o750);
    expect((await stat(join(root, 'x/y'))).isDirectory()).toBe(true);
  });

  it('answers 409 when a file sits where the directory should be', async () => {
    const { gate } = await setup({ 'scope/x': 'file' });
    await expect(makeDirectory(await gate.resolve('/x', 'write'), 0o750)).rejects.toMatchObject({ code: 'exists' });
  });

  it('removes a symlink itself, never what it points to', async () => {
    const { root, gate } = await setup({ 'scope/d/f.txt': 'keep', 'scope/link': { symlink: 'd' } });
    await removeTree(await gate.resolve('/link', 'write'), () => false);
    expect(await readFile(join(root, 'd/f.txt'), 'utf8')).toBe('keep');
    await expect(lstat(join(root, 'link'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('refuses (403) to remove a tree holding a protected server file', async () => {
    const { root, gate } = await setup({ 'scope/d/filemgr.json': '{}' });
    const db = join(root, 'd/filemgr.json');
    await expect(removeTree(await gate.resolve('/d', 'write'), (p) => db.startsWith(`${p}/`))).rejects.toMatchObject({ code: 'forbidden' });
    expect(await readFile(db, 'utf8')).toBe('{}');
  });

  it('answers 404 for a missing path', async () => {
    const { gate } = await setup({});
    await expect(removeTree(await gate.resolve('/nope', 'write'), () => false)).rejects.toMatchObject({ code: 'not_found' });
  });
});

describe('write targets outside the scope', () => {
  it('refuses a dangling symlink pointing outside, creating nothing', async () => {
    const { base, gate } = await setup({ 'scope/evil': { symlink: '../outside/created.txt' }, 'outside/.keep': '' });
    await expect(gate.resolve('/evil', 'write')).rejects.toMatchObject({ code: 'forbidden' });
    await expect(lstat(join(base, 'outside/created.txt'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('never writes below a directory symlink that escapes', async () => {
    const { base, gate } = await setup({ 'scope/link': { symlink: '../outside' }, 'outside/victim.txt': 'v' });
    await expect(gate.resolve('/link/victim.txt', 'write')).rejects.toMatchObject({ code: 'forbidden' });
    await writeFile(join(base, 'marker'), '');
    expect(await readFile(join(base, 'outside/victim.txt'), 'utf8')).toBe('v');
  });
});
