import { chmodSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, inflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ArchiveOutput } from './archive-output';
import { readsOfWire, SmallFileReader } from './file-reader';
import { readFiles } from './read-files';
import { encodeReply } from './read-reply';
import { padding, tarHeader, tarHeaderLength, writeTarHeader } from './tar-header';
import type { FileToRead, ReadOutcome } from './worker-protocol';
import { defaultArchiveWorkerSource } from './worker-source';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'filemgr-prepare-files-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: Buffer | string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

const text = (seed: number, size: number): Buffer => Buffer.from(`line ${seed} of a compressible text file\n`.repeat(Math.ceil(size / 30)).slice(0, size));

/** The tar record the writers make for a file of this content, name, mode and mtime. */
function expectedRecord(name: string, content: Buffer, path: string): Buffer {
  const stats = statSync(path);
  const header = tarHeader({ name, isDir: false, size: content.length, mode: stats.mode & 0o7777, mtime: stats.mtime });
  return Buffer.concat([...header, content, padding(content.length)]);
}

describe('readFiles preparing tar records', () => {
  it('packs each small file as its whole tar record (header with name, mode, mtime; content; padding)', () => {
    const a = file('a.txt', text(1, 1000));
    const b = file('b.sh', '#!/bin/sh\n');
    chmodSync(b, 0o750);
    utimesSync(a, new Date('2003-04-05T06:07:08Z'), new Date('2003-04-05T06:07:08Z'));
    const empty = file('empty', '');
    const files: FileToRead[] = [
      { path: a, follow: false, name: 'docs/a.txt' },
      { path: join(dir, 'missing'), follow: false, name: 'missing' },
      { path: b, follow: false, name: 'b.sh' },
      { path: empty, follow: false, name: 'empty' },
    ];
    const reply = readFiles(files, 'tar');
    const records = [expectedRecord('docs/a.txt', text(1, 1000), a), expectedRecord('b.sh', Buffer.from('#!/bin/sh\n'), b), expectedRecord('empty', Buffer.alloc(0), empty)];
    expect(Buffer.from(reply.bytes).equals(Buffer.concat(records))).toBe(true);
    expect(reply.outcomes.map((o) => o.status)).toEqual(['data', 'failed', 'data', 'data']);
    expect(reply.outcomes.map((o) => (o.status === 'data' ? [o.length, o.size] : undefined))).toEqual([[512 + 1024, 1000], undefined, [512 + 512, 10], [512, 0]]);
  });

  it('gives a long non-ASCII name a pax header', () => {
    const name = `${'ü'.repeat(120)}/f.txt`;
    const path = file('pax.txt', 'pax');
    const reply = readFiles([{ path, follow: false, name }], 'tar');
    expect(Buffer.from(reply.bytes).equals(expectedRecord(name, Buffer.from('pax'), path))).toBe(true);
  });
});

describe('readFiles preparing zip bodies', () => {
  it('deflates each file with its CRC-32, and stores one that deflating does not shrink', () => {
    const big = text(2, 5000);
    const a = file('z.txt', big);
    const b = file('tiny', 'x');
    const reply = readFiles([{ path: a, follow: false }, { path: b, follow: false }], 'zip');
    const [first, second] = reply.outcomes;
    if (first?.status !== 'data' || second?.status !== 'data') throw new Error('both files should be data');
    expect(first.zip).toEqual({ crc: crc32(big), deflated: true });
    expect(first.size).toBe(5000);
    expect(first.length).toBeLessThan(5000);
    expect(inflateRawSync(reply.bytes.subarray(0, first.length)).equals(big)).toBe(true);
    expect(second.zip).toEqual({ crc: crc32(Buffer.from('x')), deflated: false });
    expect(Buffer.from(reply.bytes.subarray(first.length)).toString()).toBe('x');
  });

  it('prepares the same bytes in the reader worker as on the calling thread', async () => {
    const files = Array.from({ length: 20 }, (_, i): FileToRead => ({ path: file(`w${i}.txt`, text(i, 100 + i * 300)), follow: false, name: `w${i}.txt` }));
    for (const prepare of ['tar', 'zip'] as const) {
      const reader = new SmallFileReader(defaultArchiveWorkerSource(), prepare);
      try {
        const results = await reader.read(files);
        const inline = readFiles(files, prepare);
        expect(Buffer.concat(results.map((r) => (r.kind === 'data' ? r.data : Buffer.alloc(0)))).equals(Buffer.from(inline.bytes))).toBe(true);
      } finally {
        reader.close();
      }
    }
  });
});

describe('ArchiveOutput', () => {
  it('writes parts that follow each other in one buffer as one chunk, and others as they come', () => {
    const output = new ArchiveOutput();
    const chunks: Buffer[] = [];
    output.stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    const batch = Buffer.from('0123456789');
    const other = Buffer.from('abc');
    output.add(batch.subarray(0, 4));
    output.add(batch.subarray(4, 10));
    output.flush();
    output.add(batch.subarray(0, 2));
    output.add(other);
    output.add(batch.subarray(5, 7));
    output.end();
    expect(chunks.map(String)).toEqual(['0123456789', '01abc56']);
    // The first chunk is the batch itself, not a copy of it.
    expect(chunks[0]?.buffer).toBe(batch.buffer);
    expect(output.offset).toBe(17);
  });
});

describe('writeTarHeader', () => {
  it('writes what tarHeader returns, ustar or pax, over whatever the buffer held, and tells its length', () => {
    const mtime = new Date('2020-01-02T03:04:05Z');
    for (const name of ['short.txt', `${'d/'.repeat(80)}long.txt`, 'naïve.txt', `${'x'.repeat(300)}`]) {
      const entry = { name, isDir: false, size: 1234, mode: 0o640, mtime };
      const expected = Buffer.concat(tarHeader(entry));
      const out = Buffer.alloc(expected.length + 20, 0xff);
      expect(writeTarHeader(entry, out, 10)).toBe(expected.length);
      expect(tarHeaderLength(entry)).toBe(expected.length);
      expect(out.subarray(10, 10 + expected.length).equals(expected)).toBe(true);
      expect(out[9]).toBe(0xff);
      expect(out[10 + expected.length]).toBe(0xff);
    }
  });
});

describe('a reader reply across threads', () => {
  it('reads back as the outcomes it was encoded from, each kind and zip field included', () => {
    const outcomes: ReadOutcome[] = [
      { status: 'data', length: 1536, size: 1000, mode: 0o100644, mtimeMs: 1_600_000_000_123.5 },
      { status: 'large', size: 9_000_000, mode: 0o100600, mtimeMs: 1 },
      { status: 'failed', error: 'EACCES: permission denied' },
      { status: 'skip' },
      { status: 'data', length: 40, size: 100, mode: 0o100755, mtimeMs: 2, zip: { crc: 0xfedcba98, deflated: true } },
      { status: 'data', length: 1, size: 1, mode: 0o100644, mtimeMs: 3, zip: { crc: 7, deflated: false } },
      { status: 'failed', error: 'ENOENT' },
    ];
    const bytes = new Uint8Array(1536 + 40 + 1).map((_, i) => i % 251);
    const reads = readsOfWire(encodeReply({ kind: 'read', bytes, outcomes }));
    const slice = (from: number, length: number): Buffer => Buffer.from(bytes.subarray(from, from + length));
    expect(reads).toEqual([
      { kind: 'data', data: slice(0, 1536), stat: { size: 1000, mode: 0o100644, mtimeMs: 1_600_000_000_123.5 } },
      { kind: 'large', stat: { size: 9_000_000, mode: 0o100600, mtimeMs: 1 } },
      { kind: 'failed', error: new Error('EACCES: permission denied') },
      { kind: 'skip' },
      { kind: 'data', data: slice(1536, 40), stat: { size: 100, mode: 0o100755, mtimeMs: 2 }, zip: { crc: 0xfedcba98, deflated: true } },
      { kind: 'data', data: slice(1576, 1), stat: { size: 1, mode: 0o100644, mtimeMs: 3 }, zip: { crc: 7, deflated: false } },
      { kind: 'failed', error: new Error('ENOENT') },
    ]);
    const failures = reads.flatMap((r) => (r.kind === 'failed' ? [r.error.message] : []));
    expect(failures).toEqual(['EACCES: permission denied', 'ENOENT']);
  });
});
