/**
 * The records of a zip file (PKWARE APPNOTE 6.3): local file headers, data descriptors, central
 * directory records and the end records, switching to zip64 fields exactly where a size, an
 * offset or the entry count does not fit the classic ones. Names are UTF-8 (flag bit 11 when
 * not ASCII); every entry also carries an extended timestamp (0x5455) so unzip restores the
 * exact modification time, not the local two-second DOS time.
 */

/** One entry as the central directory describes it. */
export interface ZipEntryRecord {
  name: Buffer;
  /** The name has non-ASCII characters (general purpose flag bit 11). */
  utf8: boolean;
  isDir: boolean;
  /** Permission bits. */
  mode: number;
  mtime: Date;
  method: ZipMethod;
  crc: number;
  compressedSize: number;
  size: number;
  /** Offset of the entry's local header. */
  offset: number;
  /** Streamed: sizes and CRC follow the data in a data descriptor (flag bit 3). */
  streamed: boolean;
}

export const STORED = 0;
export const DEFLATED = 8;
export type ZipMethod = typeof STORED | typeof DEFLATED;

const MAX32 = 0xffffffff;
const MAX16 = 0xffff;
const VERSION_MADE_BY = (3 << 8) | 45; // Unix, APPNOTE 4.5
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const MSDOS_DIR = 0x10;
const FLAG_DESCRIPTOR = 0x0008;
const FLAG_UTF8 = 0x0800;

function writeU64(buf: Buffer, value: number, offset: number): void {
  buf.writeUInt32LE(value % 2 ** 32, offset);
  buf.writeUInt32LE(Math.floor(value / 2 ** 32), offset + 4);
}

/** The DOS date and time fields (local time, two-second steps, 1980 to 2107). */
function dosDateTime(date: Date): { date: number; time: number } {
  const year = date.getFullYear();
  if (Number.isNaN(year) || year < 1980) return { date: (1 << 5) | 1, time: 0 };
  if (year > 2107) return { date: (127 << 9) | (12 << 5) | 31, time: (23 << 11) | (59 << 5) | 29 };
  return {
    date: ((year - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate(),
    time: (date.getHours() << 11) | (date.getMinutes() << 5) | (date.getSeconds() >> 1),
  };
}

/** The extended timestamp extra field with the modification time only (UTC seconds). */
function timestampExtra(mtime: Date): Buffer {
  const seconds = Math.min(Math.max(0, Math.floor(mtime.getTime() / 1000)), 0x7fffffff);
  const extra = Buffer.alloc(9);
  extra.writeUInt16LE(0x5455, 0);
  extra.writeUInt16LE(5, 2);
  extra.writeUInt8(1, 4);
  extra.writeUInt32LE(Number.isNaN(seconds) ? 0 : seconds, 5);
  return extra;
}

/** A zip64 extended information extra field holding `values` (8 bytes each, in APPNOTE order). */
function zip64Extra(values: number[]): Buffer {
  const extra = Buffer.alloc(4 + 8 * values.length);
  extra.writeUInt16LE(0x0001, 0);
  extra.writeUInt16LE(8 * values.length, 2);
  values.forEach((value, i) => writeU64(extra, value, 4 + 8 * i));
  return extra;
}

function flags(entry: ZipEntryRecord): number {
  return (entry.streamed ? FLAG_DESCRIPTOR : 0) | (entry.utf8 ? FLAG_UTF8 : 0);
}

/**
 * Whether a streamed entry uses zip64 sizes. Its compressed size is unknown when the header is
 * written, and deflate can grow incompressible data slightly, so the margin is generous.
 */
export function streamedNeedsZip64(size: number): boolean {
  return size + Math.ceil(size / 1000) + 1024 * 1024 >= MAX32;
}

/** The local file header. A streamed entry has zero CRC and sizes here; its descriptor has them. */
export function localHeader(entry: ZipEntryRecord): Buffer {
  const zip64 = entry.streamed ? streamedNeedsZip64(entry.size) : entry.size >= MAX32 || entry.compressedSize >= MAX32;
  const sizes = entry.streamed ? [0, 0] : [entry.size, entry.compressedSize];
  const extras = [...(zip64 ? [zip64Extra(sizes)] : []), timestampExtra(entry.mtime)];
  const extraLength = extras.reduce((sum, extra) => sum + extra.length, 0);
  const head = Buffer.alloc(30);
  const { date, time } = dosDateTime(entry.mtime);
  head.writeUInt32LE(0x04034b50, 0);
  head.writeUInt16LE(zip64 ? 45 : 20, 4);
  head.writeUInt16LE(flags(entry), 6);
  head.writeUInt16LE(entry.method, 8);
  head.writeUInt16LE(time, 10);
  head.writeUInt16LE(date, 12);
  head.writeUInt32LE(entry.streamed ? 0 : entry.crc, 14);
  head.writeUInt32LE(zip64 ? MAX32 : (sizes[1] ?? 0), 18);
  head.writeUInt32LE(zip64 ? MAX32 : (sizes[0] ?? 0), 22);
  head.writeUInt16LE(entry.name.length, 26);
  head.writeUInt16LE(extraLength, 28);
  return Buffer.concat([head, entry.name, ...extras]);
}

/** The data descriptor after a streamed entry's data (8-byte sizes when its header used zip64). */
export function dataDescriptor(entry: ZipEntryRecord): Buffer {
  const zip64 = streamedNeedsZip64(entry.size);
  const out = Buffer.alloc(zip64 ? 24 : 16);
  out.writeUInt32LE(0x08074b50, 0);
  out.writeUInt32LE(entry.crc, 4);
  if (zip64) {
    writeU64(out, entry.compressedSize, 8);
    writeU64(out, entry.size, 16);
  } else {
    out.writeUInt32LE(entry.compressedSize, 8);
    out.writeUInt32LE(entry.size, 12);
  }
  return out;
}

/** The entry's central directory record. */
export function centralRecord(entry: ZipEntryRecord): Buffer {
  const big = [entry.size, entry.compressedSize, entry.offset].map((value) => value >= MAX32);
  const wide = [entry.size, entry.compressedSize, entry.offset].filter((_, i) => big[i]);
  const extras = [...(wide.length > 0 ? [zip64Extra(wide)] : []), timestampExtra(entry.mtime)];
  const extraLength = extras.reduce((sum, extra) => sum + extra.length, 0);
  const head = Buffer.alloc(46);
  const { date, time } = dosDateTime(entry.mtime);
  const unixMode = (entry.isDir ? S_IFDIR : S_IFREG) | (entry.mode & 0o7777);
  head.writeUInt32LE(0x02014b50, 0);
  head.writeUInt16LE(VERSION_MADE_BY, 4);
  head.writeUInt16LE(wide.length > 0 ? 45 : 20, 6);
  head.writeUInt16LE(flags(entry), 8);
  head.writeUInt16LE(entry.method, 10);
  head.writeUInt16LE(time, 12);
  head.writeUInt16LE(date, 14);
  head.writeUInt32LE(entry.crc, 16);
  head.writeUInt32LE(big[1] ? MAX32 : entry.compressedSize, 20);
  head.writeUInt32LE(big[0] ? MAX32 : entry.size, 24);
  head.writeUInt16LE(entry.name.length, 28);
  head.writeUInt16LE(extraLength, 30);
  // Comment length, disk number and internal attributes stay zero.
  head.writeUInt32LE(((unixMode << 16) | (entry.isDir ? MSDOS_DIR : 0)) >>> 0, 38);
  head.writeUInt32LE(big[2] ? MAX32 : entry.offset, 42);
  return Buffer.concat([head, entry.name, ...extras]);
}

/** Where and how big the central directory is, and how many entries it lists. */
export interface CentralDirectory {
  count: number;
  offset: number;
  size: number;
}

/** The end records: a zip64 end record and locator when any value needs them, then the classic one. */
export function endRecords(dir: CentralDirectory): Buffer {
  const zip64 = dir.count >= MAX16 || dir.offset >= MAX32 || dir.size >= MAX32;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(zip64 ? MAX16 : dir.count, 8);
  end.writeUInt16LE(zip64 ? MAX16 : dir.count, 10);
  end.writeUInt32LE(zip64 ? MAX32 : dir.size, 12);
  end.writeUInt32LE(zip64 ? MAX32 : dir.offset, 16);
  if (!zip64) return end;
  const record = Buffer.alloc(56);
  record.writeUInt32LE(0x06064b50, 0);
  writeU64(record, 44, 4);
  record.writeUInt16LE(VERSION_MADE_BY, 12);
  record.writeUInt16LE(45, 14);
  writeU64(record, dir.count, 24);
  writeU64(record, dir.count, 32);
  writeU64(record, dir.size, 40);
  writeU64(record, dir.offset, 48);
  const locator = Buffer.alloc(20);
  locator.writeUInt32LE(0x07064b50, 0);
  writeU64(locator, dir.offset + dir.size, 8);
  locator.writeUInt32LE(1, 16);
  return Buffer.concat([record, locator, end]);
}
