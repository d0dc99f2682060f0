import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SmallFileReader, type FileRead } from './file-reader';
import { readFiles, SMALL_FILE } from './read-files';
import type { FileStat, FileToRead, ReadOutcome, ReadReply } from './worker-protocol';
import { defaultArchiveWorkerSource } from './worker-source';
import { runningArchiveWorkers } from './worker-spawn';

const KiB = 1024;
const MiB = 1024 * KiB;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'filemgr-read-files-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Writes a file below the temp dir and returns its path. */
function file(name: string, content: Buffer | string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

const plain = (path: string): FileToRead => ({ path, follow: false });

/** The contents of a reply's `data` outcomes, cut from its packed buffer in request order. */
function contentsOf(reply: ReadReply): (Buffer | undefined)[] {
  let offset = 0;
  return reply.outcomes.map((outcome) => {
    if (outcome.status !== 'data') return undefined;
    const data = Buffer.from(reply.bytes.subarray(offset, offset + outcome.length));
    offset += outcome.length;
    return data;
  });
}

/** The stat fields readFiles reports, from an independent stat of the path. */
function statOf(path: string): { size: number; mode: number; mtimeMs: number } {
  const stats = statSync(path);
  return { size: stats.size, mode: stats.mode, mtimeMs: stats.mtimeMs };
}

async function eventually(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('readFiles', () => {
  it('reads small files whole, in request order, with their size, mode and mtime', () => {
    const a = file('a.txt', 'alpha');
    const bContent = randomBytes(3000);
    const b = file('b.bin', bContent);
    const c = file('c.sh', '#!/bin/sh\necho hi\n');
    chmodSync(c, 0o755);
    utimesSync(a, new Date('2001-02-03T04:05:06.789Z'), new Date('2001-02-03T04:05:06.789Z'));
    const reply = readFiles([plain(c), plain(a), plain(b)]);
    expect(reply.kind).toBe('read');
    expect(reply.outcomes).toEqual([
      { status: 'data', length: 18, ...statOf(c) },
      { status: 'data', length: 5, ...statOf(a) },
      { status: 'data', length: 3000, ...statOf(b) },
    ]);
    expect((reply.outcomes[0] as { mode: number }).mode & 0o777).toBe(0o755);
    expect((reply.outcomes[1] as { mtimeMs: number }).mtimeMs).toBe(Date.parse('2001-02-03T04:05:06.789Z'));
    const [cData, aData, bData] = contentsOf(reply);
    expect(cData?.toString()).toBe('#!/bin/sh\necho hi\n');
    expect(aData?.toString()).toBe('alpha');
    expect(bData?.equals(bContent)).toBe(true);
    expect(reply.bytes.length).toBe(18 + 5 + 3000);
  });

  it('reads a zero-byte file as data of length 0', () => {
    const empty = file('empty', '');
    const reply = readFiles([plain(empty), plain(file('after', 'xyz'))]);
    expect(reply.outcomes).toEqual([
      { status: 'data', length: 0, ...statOf(empty) },
      { status: 'data', length: 3, ...statOf(join(dir, 'after')) },
    ]);
    expect(Buffer.from(reply.bytes).toString()).toBe('xyz');
  });

  it('reports a file larger than SMALL_FILE as large, with its stat and no bytes', () => {
    const exact = file('exact', Buffer.alloc(SMALL_FILE, 1));
    const big = file('big', Buffer.alloc(SMALL_FILE + 1, 2));
    const reply = readFiles([plain(big), plain(exact)]);
    expect(reply.outcomes).toEqual([
      { status: 'large', ...statOf(big) },
      { status: 'data', length: SMALL_FILE, ...statOf(exact) },
    ]);
    expect(reply.bytes.length).toBe(SMALL_FILE);
    expect(Buffer.from(reply.bytes).equals(Buffer.alloc(SMALL_FILE, 1))).toBe(true);
  });

  it('reads at most 4 MiB per batch: later files are large, a file that still fits is read', () => {
    const paths = Array.from({ length: 20 }, (_, i) => file(`quarter-${i}`, Buffer.alloc(250 * KiB, i + 1)));
    const small = file('fits-after', Buffer.from('still fits'));
    const reply = readFiles([...paths, small].map(plain));
    const statuses = reply.outcomes.map((o) => o.status);
    // 16 × 250 KiB = 4000 KiB fit in 4 MiB; the 17th would exceed it.
    expect(statuses).toEqual([...Array<string>(16).fill('data'), ...Array<string>(4).fill('large'), 'data']);
    reply.outcomes.forEach((outcome, i) => {
      const path = i < 20 ? paths[i]! : small;
      expect(outcome).toMatchObject(statOf(path));
    });
    const contents = contentsOf(reply);
    const dataLengths = reply.outcomes.reduce((sum, o) => sum + (o.status === 'data' ? o.length : 0), 0);
    expect(reply.bytes.length).toBe(dataLengths);
    expect(reply.bytes.length).toBe(16 * 250 * KiB + 10);
    contents.slice(0, 16).forEach((data, i) => expect(data?.equals(Buffer.alloc(250 * KiB, i + 1))).toBe(true));
    expect(contents[20]?.toString()).toBe('still fits');
  });

  it('fills the budget exactly: 16 files of 256 KiB are data, then a 1-byte file is large and an empty one data', () => {
    const paths = Array.from({ length: 16 }, (_, i) => file(`full-${i}`, Buffer.alloc(256 * KiB, i)));
    const one = file('one-byte', 'x');
    const none = file('zero-byte', '');
    const reply = readFiles([...paths, one, none].map(plain));
    expect(reply.outcomes.map((o) => o.status)).toEqual([...Array<string>(16).fill('data'), 'large', 'data']);
    expect(reply.outcomes[16]).toEqual({ status: 'large', ...statOf(one) });
    expect(reply.bytes.length).toBe(4 * MiB);
  });

  it('reports a missing file as failed with a message, and goes on with the next', () => {
    const ok = file('present', 'here');
    const reply = readFiles([plain(join(dir, 'missing')), plain(ok)]);
    expect(reply.outcomes[0]).toMatchObject({ status: 'failed' });
    expect((reply.outcomes[0] as { error: string }).error).toContain('ENOENT');
    expect(reply.outcomes[1]).toEqual({ status: 'data', length: 4, ...statOf(ok) });
    expect(Buffer.from(reply.bytes).toString()).toBe('here');
  });

  it('does not follow a final symlink unless asked to', () => {
    const target = file('target.txt', 'target content');
    const link = join(dir, 'link.txt');
    symlinkSync(target, link);
    const refused = readFiles([{ path: link, follow: false }]);
    expect(refused.outcomes).toHaveLength(1);
    expect(refused.outcomes[0]).toMatchObject({ status: 'failed' });
    expect((refused.outcomes[0] as { error: string }).error).toMatch(/ELOOP/);
    expect(refused.bytes.length).toBe(0);
    const followed = readFiles([{ path: link, follow: true }]);
    expect(followed.outcomes).toEqual([{ status: 'data', length: 14, ...statOf(target) }]);
    expect(Buffer.from(followed.bytes).toString()).toBe('target content');
  });

  it('skips a directory', () => {
    const sub = join(dir, 'a-directory');
    mkdirSync(sub);
    const reply = readFiles([plain(sub), plain(file('next', 'n'))]);
    expect(reply.outcomes.map((o) => o.status)).toEqual(['skip', 'data']);
    expect(Buffer.from(reply.bytes).toString()).toBe('n');
  });

  it('skips a FIFO without blocking on it', () => {
    const fifo = join(dir, 'a-fifo');
    execFileSync('mkfifo', [fifo]);
    const started = Date.now();
    const reply = readFiles([plain(fifo), plain(file('after-fifo', 'ok'))]);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(reply.outcomes.map((o) => o.status)).toEqual(['skip', 'data']);
    expect(Buffer.from(reply.bytes).toString()).toBe('ok');
  });
});

const statFields = ({ size, mode, mtimeMs }: FileStat): FileStat => ({ size, mode, mtimeMs });

/** A reader result as plain data (an Error compared by its message). */
function plainResult(result: FileRead): unknown {
  if (result.kind === 'data') return { kind: 'data', data: result.data.toString('base64'), stat: statFields(result.stat) };
  if (result.kind === 'large') return { kind: 'large', stat: statFields(result.stat) };
  if (result.kind === 'failed') return { kind: 'failed', error: result.error.message };
  return { kind: 'skip' };
}

/** A batch of `count` files of mixed kinds: small, empty, large, missing, a directory. */
function mixedBatch(prefix: string, count: number): { files: FileToRead[]; expected: ReadOutcome['status'][] } {
  const files: FileToRead[] = [];
  const expected: ReadOutcome['status'][] = [];
  for (let i = 0; i < count; i++) {
    const kind = i % 7;
    const name = `${prefix}-${i}`;
    if (kind === 3) {
      files.push(plain(file(name, Buffer.alloc(SMALL_FILE + 10, i))));
      expected.push('large');
    } else if (kind === 5) {
      files.push(plain(join(dir, `${name}-missing`)));
      expected.push('failed');
    } else if (kind === 6) {
      mkdirSync(join(dir, name));
      files.push(plain(join(dir, name)));
      expected.push('skip');
    } else {
      files.push(plain(file(name, kind === 4 ? '' : randomBytes(100 + i * 37))));
      expected.push('data');
    }
  }
  return { files, expected };
}

describe('SmallFileReader', () => {
  it('reads on the calling thread without a worker, for batches small and large', async () => {
    const reader = new SmallFileReader(undefined);
    for (const count of [3, 40]) {
      const { files, expected } = mixedBatch(`inline-${count}`, count);
      const results = await reader.read(files);
      expect(results.map((r) => r.kind)).toEqual(expected);
      expect(results.map(plainResult)).toEqual(readFilesResults(files));
    }
    reader.close();
    expect(runningArchiveWorkers()).toBe(0);
  });

  it('reads a batch of 16 or more files in the worker with the same results, and stops it on close', async () => {
    const reader = new SmallFileReader(defaultArchiveWorkerSource());
    try {
      const first = mixedBatch('worker-a', 40);
      const second = mixedBatch('worker-b', 16);
      // Two batches asked for at once: answers come in request order.
      const [a, b] = await Promise.all([reader.read(first.files), reader.read(second.files)]);
      expect(runningArchiveWorkers()).toBe(1);
      expect(a.map((r) => r.kind)).toEqual(first.expected);
      expect(a.map(plainResult)).toEqual(readFilesResults(first.files));
      expect(b.map(plainResult)).toEqual(readFilesResults(second.files));
    } finally {
      reader.close();
    }
    await eventually(() => runningArchiveWorkers() === 0);
  });

  it('reads a batch of fewer than 16 files inline even when it has a worker', async () => {
    const reader = new SmallFileReader(defaultArchiveWorkerSource());
    try {
      const { files } = mixedBatch('few', 15);
      const results = await reader.read(files);
      expect(results.map(plainResult)).toEqual(readFilesResults(files));
      expect(runningArchiveWorkers()).toBe(0);
    } finally {
      reader.close();
    }
  });
});

/** What readFiles answers inline for the same files, in the reader's shape. */
function readFilesResults(files: FileToRead[]): unknown[] {
  const reply = readFiles(files);
  const contents = contentsOf(reply);
  return reply.outcomes.map((outcome, i) => {
    if (outcome.status === 'data') return { kind: 'data', data: contents[i]!.toString('base64'), stat: statFields(outcome) };
    if (outcome.status === 'large') return { kind: 'large', stat: statFields(outcome) };
    if (outcome.status === 'failed') return { kind: 'failed', error: outcome.error };
    return { kind: 'skip' };
  });
}
