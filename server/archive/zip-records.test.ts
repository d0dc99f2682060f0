import { execFile } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArchiveStream, type ArchiveEntry } from './archive';
import { centralRecord, dataDescriptor, DEFLATED, endRecords, localHeader, STORED, streamedNeedsZip64, type ZipEntryRecord } from './zip-records';

const run = promisify(execFile);
const MAX32 = 0xffffffff;
const MTIME = new Date('2024-03-10T08:09:10Z');
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'filemgr-ziprecords-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function record(fields: Partial<ZipEntryRecord> = {}): ZipEntryRecord {
  const base = { name: Buffer.from('hello.txt'), utf8: false, isDir: false, mode: 0o644, mtime: MTIME, method: STORED } as const;
  return { ...base, crc: 0x12345678, compressedSize: 11, size: 11, offset: 0, streamed: false, ...fields };
}

/** The extra fields after the name, by header id, each as its data bytes. */
function extras(buf: Buffer, start: number, length: number): Map<number, Buffer> {
  const out = new Map<number, Buffer>();
  let at = start;
  while (at < start + length) {
    const id = buf.readUInt16LE(at);
    const size = buf.readUInt16LE(at + 2);
    expect(out.has(id)).toBe(false);
    out.set(id, buf.subarray(at + 4, at + 4 + size));
    at += 4 + size;
  }
  expect(at).toBe(start + length);
  return out;
}

const u64s = (data: Buffer): number[] =>
  Array.from({ length: data.length / 8 }, (_, i) => Number(data.readBigUInt64LE(8 * i)));

/** Parses a local header, checking that its lengths add up to the buffer. */
function parseLocal(buf: Buffer) {
  expect(buf.readUInt32LE(0)).toBe(0x04034b50);
  const nameLength = buf.readUInt16LE(26);
  const extraLength = buf.readUInt16LE(28);
  expect(buf.length).toBe(30 + nameLength + extraLength);
  return {
    version: buf.readUInt16LE(4),
    flags: buf.readUInt16LE(6),
    method: buf.readUInt16LE(8),
    time: buf.readUInt16LE(10),
    date: buf.readUInt16LE(12),
    crc: buf.readUInt32LE(14),
    compressedSize: buf.readUInt32LE(18),
    size: buf.readUInt32LE(22),
    name: buf.subarray(30, 30 + nameLength).toString('utf8'),
    extra: extras(buf, 30 + nameLength, extraLength),
  };
}

function parseCentral(buf: Buffer) {
  expect(buf.readUInt32LE(0)).toBe(0x02014b50);
  const nameLength = buf.readUInt16LE(28);
  const extraLength = buf.readUInt16LE(30);
  expect(buf.readUInt16LE(32)).toBe(0); // comment length
  expect(buf.length).toBe(46 + nameLength + extraLength);
  return {
    madeBy: buf.readUInt16LE(4),
    version: buf.readUInt16LE(6),
    flags: buf.readUInt16LE(8),
    time: buf.readUInt16LE(12),
    date: buf.readUInt16LE(14),
    crc: buf.readUInt32LE(16),
    compressedSize: buf.readUInt32LE(20),
    size: buf.readUInt32LE(24),
    external: buf.readUInt32LE(38),
    offset: buf.readUInt32LE(42),
    name: buf.subarray(46, 46 + nameLength).toString('utf8'),
    extra: extras(buf, 46 + nameLength, extraLength),
  };
}

/** The 0x5455 extra: flags 1 (mtime only), then the mtime in UTC seconds. */
function expectTimestamp(extra: Map<number, Buffer>, date: Date): void {
  const field = extra.get(0x5455);
  expect(field?.length).toBe(5);
  expect(field?.readUInt8(0)).toBe(1);
  expect(field?.readUInt32LE(1)).toBe(Math.floor(date.getTime() / 1000));
}

describe('localHeader', () => {
  it('writes a small stored entry with its CRC, sizes and timestamp, version 20 and no flags', () => {
    const h = parseLocal(localHeader(record()));
    expect(h).toMatchObject({ version: 20, flags: 0, method: STORED, crc: 0x12345678, compressedSize: 11, size: 11, name: 'hello.txt' });
    expect([...h.extra.keys()]).toEqual([0x5455]);
    expectTimestamp(h.extra, MTIME);
  });

  it('sets bit 11 for a UTF-8 name and keeps a deflated entry’s sizes', () => {
    const name = 'ünïcödé ✓/文件.txt';
    const h = parseLocal(localHeader(record({ name: Buffer.from(name), utf8: true, method: DEFLATED, compressedSize: 7, size: 40 })));
    expect(h).toMatchObject({ flags: 0x0800, method: DEFLATED, compressedSize: 7, size: 40, name });
  });

  it('sets bit 3 for a streamed entry and leaves CRC and sizes to the descriptor', () => {
    const h = parseLocal(localHeader(record({ streamed: true, method: DEFLATED, size: 5000, compressedSize: 1234 })));
    expect(h).toMatchObject({ version: 20, flags: 0x0008, method: DEFLATED, crc: 0, compressedSize: 0, size: 0 });
    expect([...h.extra.keys()]).toEqual([0x5455]);
    const both = parseLocal(localHeader(record({ streamed: true, utf8: true, name: Buffer.from('é') })));
    expect(both.flags).toBe(0x0808);
  });

  it.each([
    ['a size of 2^32', 2 ** 32, 2 ** 32 - 100],
    ['a size of exactly 0xFFFFFFFF', MAX32, 1000],
    ['a compressed size of 0xFFFFFFFF', MAX32 - 1, MAX32],
    ['a size of 6 GiB', 6 * 2 ** 30, 5 * 2 ** 30 + 7],
  ])('switches to zip64 for %s, with both sizes in the extra', (_, size, compressedSize) => {
    const h = parseLocal(localHeader(record({ size, compressedSize, method: DEFLATED })));
    expect(h).toMatchObject({ version: 45, size: MAX32, compressedSize: MAX32, crc: 0x12345678 });
    expect(u64s(h.extra.get(0x0001) as Buffer)).toEqual([size, compressedSize]);
    expectTimestamp(h.extra, MTIME);
  });

  it('keeps classic sizes just below the limit', () => {
    const h = parseLocal(localHeader(record({ size: MAX32 - 1, compressedSize: MAX32 - 1 })));
    expect(h).toMatchObject({ version: 20, size: MAX32 - 1, compressedSize: MAX32 - 1 });
    expect(h.extra.has(0x0001)).toBe(false);
  });

  it('gives a streamed entry near 4 GiB zero sizes in a zip64 extra', () => {
    expect(streamedNeedsZip64(0)).toBe(false);
    expect(streamedNeedsZip64(4_000_000_000)).toBe(false);
    expect(streamedNeedsZip64(4_280_000_000)).toBe(false);
    expect(streamedNeedsZip64(4_290_000_000)).toBe(true);
    // Deflate grows incompressible data by a few bytes per block: this size could still overflow.
    expect(streamedNeedsZip64(MAX32 - 1_400_000)).toBe(true);
    expect(streamedNeedsZip64(MAX32)).toBe(true);
    const size = 4_290_000_000;
    const h = parseLocal(localHeader(record({ streamed: true, size, compressedSize: 0, crc: 0 })));
    expect(h).toMatchObject({ version: 45, flags: 0x0008, size: MAX32, compressedSize: MAX32, crc: 0 });
    expect(u64s(h.extra.get(0x0001) as Buffer)).toEqual([0, 0]);
    const small = parseLocal(localHeader(record({ streamed: true, size: 4_000_000_000 })));
    expect(small).toMatchObject({ version: 20, size: 0, compressedSize: 0 });
    expect(small.extra.has(0x0001)).toBe(false);
  });
});

describe('dataDescriptor', () => {
  it('writes 4-byte sizes when the header was classic', () => {
    const d = dataDescriptor(record({ streamed: true, crc: 0xdeadbeef, compressedSize: 300, size: 4_000_000_000 }));
    expect(d.length).toBe(16);
    expect([d.readUInt32LE(0), d.readUInt32LE(4), d.readUInt32LE(8), d.readUInt32LE(12)]).toEqual([0x08074b50, 0xdeadbeef, 300, 4_000_000_000]);
  });

  it('writes 8-byte sizes exactly when streamedNeedsZip64(size)', () => {
    for (const size of [4_290_000_000, MAX32, 5 * 2 ** 32 + 3]) {
      expect(streamedNeedsZip64(size)).toBe(true);
      const d = dataDescriptor(record({ streamed: true, crc: 0xcafef00d, compressedSize: size + 17, size }));
      expect(d.length).toBe(24);
      expect([d.readUInt32LE(0), d.readUInt32LE(4)]).toEqual([0x08074b50, 0xcafef00d]);
      expect(u64s(d.subarray(8))).toEqual([size + 17, size]);
    }
  });
});

describe('centralRecord', () => {
  it('says Unix made it and keeps file and directory modes in the external attributes', () => {
    const file = parseCentral(centralRecord(record({ mode: 0o755, offset: 1234 })));
    expect(file.madeBy >> 8).toBe(3);
    expect(file).toMatchObject({ version: 20, flags: 0, crc: 0x12345678, size: 11, compressedSize: 11, offset: 1234, name: 'hello.txt' });
    expect(file.external).toBe(((0o100000 | 0o755) << 16) >>> 0);
    expectTimestamp(file.extra, MTIME);
    const folder = parseCentral(centralRecord(record({ name: Buffer.from('docs/'), isDir: true, mode: 0o750, size: 0, compressedSize: 0, crc: 0 })));
    expect(folder.external).toBe((((0o040000 | 0o750) << 16) | 0x10) >>> 0);
    const typed = parseCentral(centralRecord(record({ mode: 0o100640 })));
    expect(typed.external).toBe(((0o100000 | 0o640) << 16) >>> 0);
  });

  it.each([
    ['offset', { offset: 2 ** 32 + 5 }, [2 ** 32 + 5]],
    ['size', { size: 2 ** 32, compressedSize: 1000 }, [2 ** 32]],
    ['compressed size', { size: MAX32 - 1, compressedSize: MAX32 }, [MAX32]],
    ['size and offset', { size: 6 * 2 ** 30, compressedSize: 10, offset: MAX32 }, [6 * 2 ** 30, MAX32]],
    ['all three', { size: 2 ** 33, compressedSize: 2 ** 32 + 1, offset: 2 ** 34 }, [2 ** 33, 2 ** 32 + 1, 2 ** 34]],
  ] as const)('puts only the overflowing %s in the zip64 extra', (_, fields, wide) => {
    const all = { size: 11, compressedSize: 11, offset: 77, ...fields };
    const c = parseCentral(centralRecord(record(all)));
    expect(c.version).toBe(45);
    expect(u64s(c.extra.get(0x0001) as Buffer)).toEqual(wide);
    expect(c.size).toBe(all.size >= MAX32 ? MAX32 : all.size);
    expect(c.compressedSize).toBe(all.compressedSize >= MAX32 ? MAX32 : all.compressedSize);
    expect(c.offset).toBe(all.offset >= MAX32 ? MAX32 : all.offset);
    expectTimestamp(c.extra, MTIME);
  });

  it('writes the local DOS date and time in two-second steps', () => {
    const mtime = new Date(2024, 4, 17, 13, 45, 31);
    const c = parseCentral(centralRecord(record({ mtime })));
    expect(c.date).toBe(((2024 - 1980) << 9) | (5 << 5) | 17);
    expect(c.time).toBe((13 << 11) | (45 << 5) | 15);
    const l = parseLocal(localHeader(record({ mtime })));
    expect([l.date, l.time]).toEqual([c.date, c.time]);
    expectTimestamp(c.extra, mtime);
  });

  it('clamps a date before 1980 to 1980-01-01 and one before 1970 to timestamp zero', () => {
    const late1979 = parseCentral(centralRecord(record({ mtime: new Date(1979, 11, 31, 23, 59, 58) })));
    expect([late1979.date, late1979.time]).toEqual([(1 << 5) | 1, 0]);
    const c = parseCentral(centralRecord(record({ mtime: new Date('1960-06-01T00:00:00Z') })));
    expect([c.date, c.time, c.extra.get(0x5455)?.readUInt32LE(1)]).toEqual([(1 << 5) | 1, 0, 0]);
  });
});

describe('endRecords', () => {
  it('writes the classic 22-byte record when everything fits', () => {
    const end = endRecords({ count: 65_534, offset: MAX32 - 1, size: 123_456 });
    expect(end.length).toBe(22);
    expect(end.readUInt32LE(0)).toBe(0x06054b50);
    expect([end.readUInt16LE(4), end.readUInt16LE(6)]).toEqual([0, 0]);
    expect([end.readUInt16LE(8), end.readUInt16LE(10)]).toEqual([65_534, 65_534]);
    expect([end.readUInt32LE(12), end.readUInt32LE(16), end.readUInt16LE(20)]).toEqual([123_456, MAX32 - 1, 0]);
  });

  it.each([
    ['65,535 entries', { count: 65_535, offset: 1_000_000, size: 3_000_000 }],
    ['an offset of 2^32', { count: 3, offset: 2 ** 32, size: 150 }],
    ['a directory of 4 GiB', { count: 70_000, offset: 2 ** 33 + 9, size: MAX32 }],
  ])('adds the zip64 end record and locator for %s', (_, dirInfo) => {
    const out = endRecords(dirInfo);
    expect(out.length).toBe(56 + 20 + 22);
    const record = out.subarray(0, 56);
    expect(record.readUInt32LE(0)).toBe(0x06064b50);
    expect(Number(record.readBigUInt64LE(4))).toBe(44);
    expect(record.readUInt16LE(12) >> 8).toBe(3);
    expect(record.readUInt16LE(14)).toBe(45);
    expect([record.readUInt32LE(16), record.readUInt32LE(20)]).toEqual([0, 0]);
    expect(u64s(record.subarray(24))).toEqual([dirInfo.count, dirInfo.count, dirInfo.size, dirInfo.offset]);
    const locator = out.subarray(56, 76);
    expect(locator.readUInt32LE(0)).toBe(0x07064b50);
    expect(locator.readUInt32LE(4)).toBe(0);
    // The zip64 end record starts right after the central directory.
    expect(Number(locator.readBigUInt64LE(8))).toBe(dirInfo.offset + dirInfo.size);
    expect(locator.readUInt32LE(16)).toBe(1);
    const end = out.subarray(76);
    expect(end.readUInt32LE(0)).toBe(0x06054b50);
    expect([end.readUInt16LE(8), end.readUInt16LE(10), end.readUInt32LE(12), end.readUInt32LE(16)]).toEqual([0xffff, 0xffff, MAX32, MAX32]);
  });
});

describe('a zip of 70,000 entries', () => {
  it('is listed in full by unzip, through the zip64 end records, and tests clean', async () => {
    const total = 70_000;
    const mtime = new Date('2022-02-22T22:22:22Z');
    async function* batches(): AsyncGenerator<ArchiveEntry[]> {
      for (let start = 0; start < total; start += 1000) {
        const batch: ArchiveEntry[] = [];
        for (let i = start; i < Math.min(start + 1000, total); i++) {
          const data = Buffer.from(`entry ${i}\n`);
          batch.push({ name: `d${i % 7}/f${i}.txt`, isDir: false, size: data.length, mode: 0o644, mtime, data, open: () => { throw new Error('data given'); } });
        }
        await Promise.resolve();
        yield batch;
      }
    }
    const file = join(dir, 'many.zip');
    await pipeline(createArchiveStream('zip', batches()), createWriteStream(file));
    const zip = await readFile(file);
    const tail = zip.subarray(zip.length - 98);
    expect([tail.readUInt32LE(0), tail.readUInt32LE(56), tail.readUInt32LE(76)]).toEqual([0x06064b50, 0x07064b50, 0x06054b50]);
    expect(Number(tail.readBigUInt64LE(24))).toBe(total);
    expect(Number(tail.readBigUInt64LE(56 + 8))).toBe(zip.length - 98);
    const { stdout } = await run('unzip', ['-Z1', file], { maxBuffer: 64 * 1024 * 1024 });
    const names = stdout.split('\n').slice(0, -1);
    expect(names).toHaveLength(total);
    expect(names[0]).toBe('d0/f0.txt');
    expect(names[total - 1]).toBe(`d${(total - 1) % 7}/f${total - 1}.txt`);
    expect(new Set(names).size).toBe(total);
    await run('unzip', ['-tq', file], { maxBuffer: 64 * 1024 * 1024 });
    const { stdout: one } = await run('unzip', ['-p', file, 'd6/f69999.txt']);
    expect(one).toBe('entry 69999\n');
  }, 30_000);
});
