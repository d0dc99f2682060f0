import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { link, lstat, mkdir, readdir, readFile, readlink, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appsForEachTest, dirsRemovedAfterEachTest } from '../../../tests/support/per-test';
import { call } from '../../../tests/support/resource-calls';
import { makeTree } from '../../../tests/support/tree';
import type { TestApp } from '../../../tests/support/test-app';

const start = appsForEachTest();
const temps = dirsRemovedAfterEachTest();
const LONG = `${'long-directory-name-'.repeat(4)}/${'a-file-name-longer-than-one-hundred-bytes-'.repeat(3)}.txt`;

/** A tree with what the formats differ on: long names, UTF-8, links, empty and multi-block files. */
async function sourceTree(): Promise<string> {
  const src = await makeTree({
    'top/a.txt': 'alpha\n',
    'top/empty.txt': '',
    'top/sub/deep/b.bin': randomBytes(3 * 1024 * 1024 + 17),
    [`top/${LONG}`]: 'long\n',
    'top/ünïcødé ✓.txt': 'utf8\n',
    'top/zeros.bin': Buffer.alloc(5 * 1024 * 1024),
    'top/empty-dir': null,
    'top/link-to-a': { symlink: 'a.txt' },
    'top/sub/link-up': { symlink: '../a.txt' },
  });
  temps.push(src);
  return src;
}

/** Every entry below `dir`: relative path -> content, link target or 'dir'. */
async function snapshot(dir: string, base = ''): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const e of await readdir(join(dir, base), { withFileTypes: true })) {
    const rel = base === '' ? e.name : `${base}/${e.name}`;
    const full = join(dir, rel);
    if (e.isSymbolicLink()) out.set(rel, `-> ${await readlink(full)}`);
    else if (e.isDirectory()) {
      out.set(rel, 'dir');
      for (const [k, v] of await snapshot(dir, rel)) out.set(k, v);
    } else out.set(rel, createHash('sha256').update(await readFile(full)).digest('hex'));
  }
  return out;
}

const run = (cmd: string, args: string[], cwd: string): void => void execFileSync(cmd, args, { cwd, stdio: 'ignore' });

const TARS: [string, string[]][] = [
  ['x.tar', ['--format=gnu']],
  ['x-pax.tar', ['--format=pax']],
  ['x.tar.gz', ['--gzip']],
  ['x.tgz', ['--gzip', '--format=pax']],
  ['x.tar.bz2', ['--bzip2']],
  ['x.tar.xz', ['--xz']],
  ['x.tar.zst', ['--zstd']],
];

async function extract(t: TestApp, archive: string, dest: string): Promise<{ statusCode: number; body: string }> {
  return call(t, { method: 'PATCH', url: `/api/resources/${archive}?action=extract&destination=${encodeURIComponent(dest)}` });
}

describe('PATCH ?action=extract: every format, made by the standard tools', { timeout: 120_000 }, () => {
  it.each(TARS)('%s (GNU tar %s) extracts byte for byte, links included', async (name, flags) => {
    const src = await sourceTree();
    const t = await start();
    run('tar', [...flags, '-cf', join(t.root, name), 'top'], src);
    const res = await extract(t, name, '/out/here');
    expect(res.statusCode, res.body).toBe(200);
    expect(await snapshot(join(t.root, 'out/here'))).toEqual(await snapshot(src));
    // Nothing of the staging folder is left anywhere.
    expect((await readdir(join(t.root, 'out'))).sort()).toEqual(['here']);
  });

  it('a zip made by zip -r -y (symlinks stored as links), streamed entry by entry', async () => {
    const src = await sourceTree();
    const t = await start();
    run('zip', ['-q', '-r', '-y', join(t.root, 'x.zip'), 'top'], src);
    const res = await extract(t, 'x.zip', '/unzipped');
    expect(res.statusCode, res.body).toBe(200);
    expect(await snapshot(join(t.root, 'unzipped'))).toEqual(await snapshot(src));
  });

  it('a zip made by python3 -m zipfile, stored and deflated entries', async () => {
    const src = await sourceTree();
    const t = await start();
    run('/usr/bin/python3', ['-m', 'zipfile', '-c', join(t.root, 'py.zip'), 'top'], src);
    expect((await extract(t, 'py.zip', '/py')).statusCode).toBe(200);
    expect(await readFile(join(t.root, 'py/top/a.txt'), 'utf8')).toBe('alpha\n');
    // Buffer.equals: a deep toEqual of 3 MB compares element by element for half a minute.
    expect((await readFile(join(t.root, 'py/top/sub/deep/b.bin'))).equals(await readFile(join(src, 'top/sub/deep/b.bin')))).toBe(true);
  });

  it('a tar hard link becomes a hard link to the extracted file', async () => {
    const src = await makeTree({ 'h/orig.txt': 'same\n' });
    temps.push(src);
    await link(join(src, 'h/orig.txt'), join(src, 'h/twin.txt'));
    const t = await start();
    run('tar', ['-cf', join(t.root, 'h.tar'), 'h'], src);
    expect((await extract(t, 'h.tar', '/d')).statusCode).toBe(200);
    const [a, b] = await Promise.all([stat(join(t.root, 'd/h/orig.txt')), stat(join(t.root, 'd/h/twin.txt'))]);
    expect(b.ino).toBe(a.ino);
    expect(await readFile(join(t.root, 'd/h/twin.txt'), 'utf8')).toBe('same\n');
  });

  it('a bzip2 stream of concatenated streams (pbzip2 style) and long runs over 10 MB in one block', async () => {
    const t = await start();
    // Random bytes keep the archive's expansion ratio far below 1000:1.
    const src = await makeTree({ 'z/zeros': Buffer.alloc(30 * 1024 * 1024), 'z/text.txt': 'x'.repeat(100_000), 'z/random': randomBytes(1024 * 1024) });
    temps.push(src);
    run('tar', ['-cf', join(src, 'z.tar'), 'z'], src);
    const whole = await readFile(join(src, 'z.tar'));
    const half = Math.floor(whole.length / 2);
    const part = (b: Buffer): Buffer => execFileSync('bzip2', ['-c'], { input: b, maxBuffer: 1 << 30 });
    await writeFile(join(t.root, 'cat.tar.bz2'), Buffer.concat([part(whole.subarray(0, half)), part(whole.subarray(half))]));
    const res = await extract(t, 'cat.tar.bz2', '/');
    expect(res.statusCode, res.body).toBe(200);
    expect((await stat(join(t.root, 'z/zeros'))).size).toBe(30 * 1024 * 1024);
    expect(await readFile(join(t.root, 'z/text.txt'), 'utf8')).toBe('x'.repeat(100_000));
  });

  it('extracts into an existing folder by merging, and the hidden staging folder is gone', async () => {
    const t = await start({ tree: { 'dest/keep.txt': 'keep', 'dest/top/other.txt': 'o' } });
    const src = await makeTree({ 'top/new.txt': 'n' });
    temps.push(src);
    run('tar', ['-czf', join(t.root, 'm.tar.gz'), 'top'], src);
    expect((await extract(t, 'm.tar.gz', '/dest')).statusCode).toBe(200);
    expect((await readdir(join(t.root, 'dest'))).sort()).toEqual(['keep.txt', 'top']);
    expect((await readdir(join(t.root, 'dest/top'))).sort()).toEqual(['new.txt', 'other.txt']);
  });

  it('writes files with the configured file and folder modes', async () => {
    const t = await start({ settings: (s) => { s.fileMode = 0o640; s.dirMode = 0o750; } });
    const src = await makeTree({ 'p/f.txt': 'f' });
    temps.push(src);
    run('tar', ['-cf', join(t.root, 'p.tar'), 'p'], src);
    await mkdir(join(t.root, 'dst'));
    expect((await extract(t, 'p.tar', '/dst')).statusCode).toBe(200);
    const umask = process.umask();
    expect((await lstat(join(t.root, 'dst/p/f.txt'))).mode & 0o777).toBe(0o640 & ~umask);
    expect((await lstat(join(t.root, 'dst/p'))).mode & 0o777).toBe(0o750 & ~umask);
  });
});
