import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readdir, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { WorkerInit } from '../../archive/worker-protocol';
import { idleArchiveWorkers, runningArchiveWorkers } from '../../archive/worker-spawn';
import type * as WorkerSpawn from '../../archive/worker-spawn';
import { appsForEachTest, dirsRemovedAfterEachTest } from '../../../tests/support/per-test';
import { type TestApp } from '../../../tests/support/test-app';

const KiB = 1024;

// Which workers the archives started: the real spawn, recorded.
const spawned = vi.hoisted((): string[] => []);
vi.mock('../../archive/worker-spawn', async (importOriginal) => {
  const real = await importOriginal<typeof WorkerSpawn>();
  return {
    ...real,
    spawnArchiveWorker: (code: string, init: WorkerInit) => {
      spawned.push(init.format);
      return real.spawnArchiveWorker(code, init);
    },
  };
});

const start = appsForEachTest();
const dirs = dirsRemovedAfterEachTest();

async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

async function eventually(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Downloads a folder as an archive and waits until no archive worker is left running. */
async function archive(t: TestApp, folder: string, algo: string): Promise<Buffer> {
  const url = `/api/raw/${folder.split('/').map(encodeURIComponent).join('/')}?algo=${algo}`;
  const res = await t.app.inject({ method: 'GET', url, headers: { 'x-auth': t.token() } });
  expect(res.statusCode).toBe(200);
  await eventually(() => runningArchiveWorkers() === 0);
  return res.rawPayload;
}

// Names as UTF-8 whatever the environment's locale, so unzip writes them unchanged.
const utf8Env = { ...process.env, LC_ALL: 'C.UTF-8' };

/** Extracts an archive with the standard tool into a fresh directory and returns it. */
async function extracted(body: Buffer, algo: string): Promise<string> {
  const dir = await tempDir('filemgr-batches-out-');
  if (algo === 'zip') {
    const file = join(await tempDir('filemgr-batches-zip-'), 'a.zip');
    await writeFile(file, body);
    execFileSync('unzip', ['-q', file, '-d', dir], { env: utf8Env });
  } else {
    execFileSync('tar', [`-x${algo === 'targz' ? 'z' : ''}f`, '-', '-C', dir], { input: body, env: utf8Env, maxBuffer: 1 << 30 });
  }
  return dir;
}

/** Fails with diff's report when the trees differ in any name, type or byte. */
function expectSameTree(actual: string, expected: string): void {
  let report = '';
  try {
    execFileSync('diff', ['-r', '--no-dereference', expected, actual], { encoding: 'utf8', env: utf8Env, stdio: 'pipe' });
  } catch (err) {
    const { status, stdout, stderr } = err as { status?: number; stdout?: string; stderr?: string };
    report = `diff exited ${String(status)}\n${stdout ?? ''}${stderr ?? ''}`;
  }
  expect(report).toBe('');
}

/** Every path below a directory, relative and sorted, directories with a trailing '/'. */
async function listing(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries.map((e) => `${join(e.parentPath, e.name).slice(root.length + 1)}${e.isDirectory() ? '/' : ''}`).sort();
}

/** Content of a varying kind: text (deflates well) or random bytes (stored). */
function content(i: number, size: number): Buffer {
  if (i % 3 === 0) return randomBytes(size);
  return Buffer.from(`file ${i} `.repeat(Math.ceil(size / 8) + 1)).subarray(0, size);
}

describe('archives of many files, read in batches', () => {
  it('archives 600 small files in 3 folders as tar and zip, byte for byte', async () => {
    const t = await start();
    const src = join(t.root, 'many');
    for (const sub of ['one', 'two', 'three']) await mkdir(join(src, sub), { recursive: true });
    const subs = ['one', 'two', 'three'];
    await Promise.all(Array.from({ length: 600 }, (_, i) => writeFile(join(src, subs[i % 3]!, `f${String(i).padStart(3, '0')}.dat`), content(i, (i * 97) % 5000))));
    for (const algo of ['tar', 'zip']) {
      spawned.length = 0;
      const out = await extracted(await archive(t, 'many', algo), algo);
      // tar reads its batches in the reader worker; zip reads and deflates them on the main
      // thread, so no worker at all (the zip writer's deflate worker is only for entries with data).
      expect(spawned).toEqual(algo === 'tar' ? ['read'] : []);
      expect((await listing(out)).length).toBe(603);
      expectSameTree(out, src);
    }
  });

  it('archives files beyond the read budget, a large file, empty files and folders as tar, zip and targz', async () => {
    const t = await start();
    const src = join(t.root, 'mixed');
    await mkdir(join(src, 'medium'), { recursive: true });
    for (let i = 0; i < 30; i++) await writeFile(join(src, 'medium', `m${String(i).padStart(2, '0')}.bin`), content(i, 200 * KiB));
    await writeFile(join(src, 'large.bin'), randomBytes(1024 * KiB));
    await writeFile(join(src, 'empty-a'), '');
    await writeFile(join(src, 'medium', 'empty-b'), '');
    await mkdir(join(src, 'void', 'deeper', 'deepest'), { recursive: true });
    await mkdir(join(src, 'medium', 'hollow'));
    await writeFile(join(src, 'z-last.txt'), 'the last small file');
    for (const algo of ['tar', 'zip', 'targz']) {
      const out = await extracted(await archive(t, 'mixed', algo), algo);
      expect(await readdir(join(out, 'void', 'deeper', 'deepest'))).toEqual([]);
      expect((await stat(join(out, 'empty-a'))).size).toBe(0);
      expect((await stat(join(out, 'large.bin'))).size).toBe(1024 * KiB);
      expectSameTree(out, src);
    }
  });

  it('keeps long and non-ASCII names in tar and zip', async () => {
    const long = `${'long-name-'.repeat(12)}end.txt`; // 127 characters
    const deep = ['d'.repeat(90), 'é'.repeat(60), 'e'.repeat(100)].join('/'); // 312 bytes of path
    const names = [
      long,
      `${deep}/${'f'.repeat(120)}.txt`,
      'héllo wörld.txt',
      '日本語/ファイル名.txt',
      'emoji 🎉/ünïcödé ✓.md',
      `${'ü'.repeat(70)}.txt`, // 140 bytes of UTF-8, 74 characters
    ];
    const t = await start();
    const src = join(t.root, 'names');
    for (const [i, name] of names.entries()) {
      await mkdir(join(src, name, '..'), { recursive: true });
      await writeFile(join(src, name), `content of ${i}: ${name}`);
    }
    for (const algo of ['tar', 'zip']) {
      const out = await extracted(await archive(t, 'names', algo), algo);
      expect(await listing(out)).toEqual(await listing(src));
      for (const name of names) expect((await stat(join(out, name))).isFile()).toBe(true);
      expectSameTree(out, src);
    }
  });

  it('keeps mtimes and the executable bit in tar and zip', async () => {
    const t = await start();
    const src = join(t.root, 'times');
    await mkdir(join(src, 'bin'), { recursive: true });
    // More than 16 files, so that tar reads them in its worker.
    const times = Array.from({ length: 20 }, (_, i) => new Date(Date.UTC(2001 + i, i % 12, 1 + i, i, 2 * i, 3 * i)));
    for (const [i, time] of times.entries()) {
      const path = join(src, 'bin', `tool-${i}`);
      await writeFile(path, i % 2 === 0 ? `#!/bin/sh\necho ${i}\n` : `data ${i}`);
      await chmod(path, i % 2 === 0 ? 0o755 : 0o644);
      await utimes(path, time, time);
    }
    const readme = join(src, 'README');
    await writeFile(readme, 'read me');
    await utimes(readme, new Date('1999-12-31T23:59:58Z'), new Date('1999-12-31T23:59:58Z'));
    const dirTime = new Date('2010-06-15T12:00:00Z');
    await utimes(join(src, 'bin'), dirTime, dirTime);
    for (const algo of ['tar', 'zip']) {
      const out = await extracted(await archive(t, 'times', algo), algo);
      for (const [i, time] of times.entries()) {
        const got = await stat(join(out, 'bin', `tool-${i}`));
        expect({ algo, i, mtime: got.mtime.toISOString() }).toEqual({ algo, i, mtime: time.toISOString() });
        expect({ algo, i, executable: (got.mode & 0o111) !== 0 }).toEqual({ algo, i, executable: i % 2 === 0 });
      }
      expect((await stat(join(out, 'README'))).mtime.toISOString()).toBe('1999-12-31T23:59:58.000Z');
      expect((await stat(join(out, 'README'))).mode & 0o111).toBe(0);
      expect((await stat(join(out, 'bin'))).mtime.toISOString()).toBe(dirTime.toISOString());
      expectSameTree(out, src);
    }
  });

  it('lets the next tar take the reader worker the last one left waiting, and stops it with the server', async () => {
    const tree: Record<string, string> = {};
    for (let i = 0; i < 100; i++) tree[`pile/f${i}.txt`] = `pile file ${i}\n`;
    const t = await start({ tree });
    spawned.length = 0;
    const first = await archive(t, 'pile', 'tar');
    expect(idleArchiveWorkers()).toBe(1);
    const second = await archive(t, 'pile', 'tar');
    // One worker started for both: the second archive took the one the first left waiting.
    expect(spawned).toEqual(['read']);
    expect(second.equals(first)).toBe(true);
    expect(idleArchiveWorkers()).toBe(1);
    await t.app.close();
    expect(idleArchiveWorkers()).toBe(0);
    expect(runningArchiveWorkers()).toBe(0);
  });

  it('leaves no archive worker running after each format of a many-file folder', async () => {
    const tree: Record<string, string> = {};
    for (let i = 0; i < 300; i++) tree[`pile/sub${i % 4}/f${i}.txt`] = `pile file ${i}\n`.repeat(i % 50);
    const t = await start({ tree });
    for (const algo of ['tar', 'zip', 'targz', 'tarbz2', 'tarxz', 'tarlz4', 'tarsz', 'tarbr', 'tarzst']) {
      const res = await t.app.inject({ method: 'GET', url: `/api/raw/pile?algo=${algo}`, headers: { 'x-auth': t.token() } });
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.length).toBeGreaterThan(0);
      await eventually(() => runningArchiveWorkers() === 0);
      expect(runningArchiveWorkers()).toBe(0);
    }
    const out = await extracted(await archive(t, 'pile', 'tar'), 'tar');
    expectSameTree(out, join(t.root, 'pile'));
  });
});
