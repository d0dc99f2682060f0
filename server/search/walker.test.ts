import { chmod, rm } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTree } from '../../tests/support/tree';
import { realPathOf, relativePath, walkTree } from './walker';

const roots: string[] = [];

async function tree(spec: Parameters<typeof makeTree>[0]): Promise<string> {
  const root = await makeTree(spec);
  roots.push(root);
  return root;
}

interface Seen {
  path: string;
  name: string;
  isDir: boolean;
  isSymlink: boolean;
}

async function collect(root: string, signal = new AbortController().signal): Promise<Seen[]> {
  const all: Seen[] = [];
  for await (const batch of walkTree(root, signal)) {
    for (const e of batch) all.push({ path: relativePath(root, e), name: e.name, isDir: e.isDirectory(), isSymlink: e.isSymbolicLink() });
  }
  return all;
}

afterEach(async () => {
  for (const root of roots.splice(0)) {
    await chmod(`${root}/locked`, 0o755).catch(() => undefined);
    await rm(root, { recursive: true, force: true });
  }
});

describe('walkTree', () => {
  it('visits every entry in lexical pre-order, root excluded', async () => {
    const root = await tree({ 'b.txt': 'b', 'a/z.txt': 'z', 'a/m/deep.txt': 'd', 'a/b.txt': 'b', 'c/': null, 'B.txt': 'B' });
    const paths = (await collect(root)).map((e) => e.path);
    expect(paths).toEqual(['B.txt', 'a', 'a/b.txt', 'a/m', 'a/m/deep.txt', 'a/z.txt', 'b.txt', 'c']);
  });

  it('reports symlinks as non-directories and never descends into them', async () => {
    const root = await tree({ 'real/inside.txt': 'x', link: { symlink: 'real' }, 'file-link': { symlink: 'real/inside.txt' } });
    const entries = await collect(root);
    expect(entries).toEqual([
      { path: 'file-link', name: 'file-link', isDir: false, isSymlink: true },
      { path: 'link', name: 'link', isDir: false, isSymlink: true },
      { path: 'real', name: 'real', isDir: true, isSymlink: false },
      { path: 'real/inside.txt', name: 'inside.txt', isDir: false, isSymlink: false },
    ]);
  });

  it('keeps pre-order across many sibling directories read ahead of time', async () => {
    const spec: Record<string, string> = {};
    for (let i = 0; i < 30; i++) spec[`d${String(i).padStart(2, '0')}/f.txt`] = 'x';
    const root = await tree(spec);
    const paths = (await collect(root)).map((e) => e.path);
    const expected = Array.from({ length: 30 }, (_, i) => String(i).padStart(2, '0')).flatMap((n) => [`d${n}`, `d${n}/f.txt`]);
    expect(paths).toEqual(expected);
  });

  it.skipIf(process.getuid?.() === 0)('skips a directory it cannot read and goes on', async () => {
    const root = await tree({ 'locked/secret.txt': 's', 'open/a.txt': 'a' });
    await chmod(`${root}/locked`, 0o000);
    const paths = (await collect(root)).map((e) => e.path);
    expect(paths).toEqual(['locked', 'open', 'open/a.txt']);
  });

  it('yields nothing for a root that is not a directory', async () => {
    const root = await tree({ 'file.txt': 'x' });
    expect(await collect(`${root}/file.txt`)).toEqual([]);
    expect(await collect(`${root}/missing`)).toEqual([]);
  });

  it('gives each entry its real path and does not read folders the filter refuses', async () => {
    const root = await tree({ 'keep/a.txt': 'a', 'skip/b.txt': 'b' });
    const seen: string[] = [];
    for await (const batch of walkTree(root, new AbortController().signal, { enter: (e) => e.name !== 'skip' })) {
      for (const e of batch) seen.push(realPathOf(e));
    }
    expect(seen).toEqual([`${root}/keep`, `${root}/keep/a.txt`, `${root}/skip`]);
  });

  it('reports only what the report filter accepts, yet reads every folder below', async () => {
    const root = await tree({ 'x-top.txt': 'x', 'plain/x-deep.txt': 'x', 'plain/other.txt': 'o', 'x-dir/inner/x.txt': 'x', 'y.txt': 'y' });
    const seen: string[] = [];
    for await (const batch of walkTree(root, new AbortController().signal, { report: (e) => e.name.startsWith('x') })) {
      for (const e of batch) seen.push(relativePath(root, e));
    }
    expect(seen).toEqual(['plain/x-deep.txt', 'x-dir', 'x-dir/inner/x.txt', 'x-top.txt']);
  });

  it('names entries relative to a root given with a trailing slash or as /', () => {
    const entry = { name: 'c.txt', parentPath: '/srv/a/b' } as Parameters<typeof relativePath>[1];
    expect(relativePath('/srv/a', entry)).toBe('b/c.txt');
    expect(relativePath('/srv/a/', entry)).toBe('b/c.txt');
    expect(relativePath('/', entry)).toBe('srv/a/b/c.txt');
    expect(relativePath('/srv/a/b', entry)).toBe('c.txt');
    expect(realPathOf({ name: 'x', parentPath: '/' } as Parameters<typeof realPathOf>[0])).toBe('/x');
  });

  it('stops when the signal is aborted', async () => {
    const spec: Record<string, string> = {};
    for (let i = 0; i < 200; i++) spec[`d${String(i).padStart(3, '0')}/f.txt`] = 'x';
    const root = await tree(spec);
    const controller = new AbortController();
    let seen = 0;
    for await (const batch of walkTree(root, controller.signal)) {
      seen += batch.length;
      controller.abort();
    }
    expect(seen).toBeGreaterThan(0);
    expect(seen).toBeLessThan(400);
  });
});
