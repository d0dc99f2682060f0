import { closeSync, openSync, readSync } from 'node:fs';

/**
 * Where a single executable's assets lie in its own file, so that start-up reads them with pread
 * instead of through the mapping Node gives them. A mapped page that was read once stays in the
 * process's resident set for good; a page read with pread stays only in the page cache, which the
 * kernel may drop and which no process is charged for. Reading the server bundle and its code
 * cache through the mapping kept 4 MB of the binary resident in every idle server (P2).
 *
 * The asset table is found the way Node finds it: the ELF note named NODE_SEA_BLOB, then the blob's
 * header (magic, flags, the main script's path and code, an optional code cache) and its assets
 * (a count, then key and value, each a little-endian 64-bit length and its bytes). A Node whose
 * blob is laid out otherwise yields no location, and the caller reads through the mapping: every
 * key must be found with exactly the length Node itself reports for it.
 */

/** Reads `length` bytes at `position` of the executable (shorter at its end). */
export type ReadAt = (position: number, length: number) => Buffer;

/** Where one asset's bytes are in the file. */
export interface AssetSpan {
  offset: number;
  length: number;
}

const SEA_MAGIC = 0x143da20;
const NOTE_NAME = 'NODE_SEA_BLOB\0';
const PT_NOTE = 4;
const FLAG_USE_SNAPSHOT = 1 << 1;
const FLAG_USE_CODE_CACHE = 1 << 2;
const FLAG_INCLUDE_ASSETS = 1 << 3;
/** Longer than any main script's path: a larger length means the layout was misread. */
const MAX_PATH = 1 << 16;

class Misread extends Error {}

function u64(readAt: ReadAt, position: number): number {
  const bytes = readAt(position, 8);
  if (bytes.length < 8) throw new Misread('short read');
  const value = bytes.readBigUInt64LE(0);
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new Misread('length out of range');
  return Number(value);
}

/** The file span of the ELF note named NODE_SEA_BLOB: its descriptor. */
export function findSeaBlob(readAt: ReadAt): AssetSpan | undefined {
  const header = readAt(0, 64);
  // A little-endian 64-bit ELF file: the only kind a Linux x64 or arm64 Node is.
  if (header.length < 64 || header.readUInt32BE(0) !== 0x7f454c46 || header[4] !== 2 || header[5] !== 1) return undefined;
  const phoff = Number(header.readBigUInt64LE(0x20));
  const phentsize = header.readUInt16LE(0x36);
  const phnum = header.readUInt16LE(0x38);
  const table = readAt(phoff, phentsize * phnum);
  for (let i = 0; i < phnum; i++) {
    const entry = i * phentsize;
    if (entry + 56 > table.length || table.readUInt32LE(entry) !== PT_NOTE) continue;
    const start = Number(table.readBigUInt64LE(entry + 8));
    const end = start + Number(table.readBigUInt64LE(entry + 32));
    const align = Number(table.readBigUInt64LE(entry + 48)) === 8 ? 8 : 4;
    const pad = (n: number): number => Math.ceil(n / align) * align;
    for (let note = start; note + 12 <= end; ) {
      const head = readAt(note, 12);
      if (head.length < 12) break;
      const nameSize = head.readUInt32LE(0);
      const descSize = head.readUInt32LE(4);
      const desc = note + 12 + pad(nameSize);
      if (nameSize === NOTE_NAME.length && readAt(note + 12, nameSize).toString('latin1') === NOTE_NAME) return { offset: desc, length: descSize };
      note = desc + pad(descSize);
    }
  }
  return undefined;
}

/** Where the blob is, and how its header reads. */
interface BlobLayout extends AssetSpan {
  flags: number;
  /** Where the main script's path starts, from the blob's start. */
  start: number;
}

/** The assets' spans when the blob reads as the layout described above. */
function assetsFrom(readAt: ReadAt, blob: BlobLayout): Map<string, AssetSpan> {
  let at = blob.offset + blob.start;
  const end = blob.offset + blob.length;
  /** The next length-prefixed string: where its bytes are. */
  const next = (limit = Infinity): AssetSpan => {
    const length = u64(readAt, at);
    if (length > limit || at + 8 + length > end) throw new Misread('string past the blob');
    const span = { offset: at + 8, length };
    at += 8 + length;
    return span;
  };
  next(MAX_PATH); // the main script's path
  next(); // its code, or the snapshot
  if (blob.flags & FLAG_USE_CODE_CACHE && !(blob.flags & FLAG_USE_SNAPSHOT)) next();
  const count = u64(readAt, at);
  at += 8;
  const spans = new Map<string, AssetSpan>();
  for (let i = 0; i < count; i++) {
    const key = next(MAX_PATH);
    spans.set(readAt(key.offset, key.length).toString('utf8'), next());
  }
  return spans;
}

/**
 * The span of each asset in `expected` (key to the length Node reports), or undefined when the
 * file is not laid out as this Node's blob or any key is missing or of another length.
 */
export function locateSeaAssets(readAt: ReadAt, expected: ReadonlyMap<string, number>): Map<string, AssetSpan> | undefined {
  const blob = findSeaBlob(readAt);
  if (!blob || blob.length < 8) return undefined;
  const head = readAt(blob.offset, 8);
  if (head.length < 8 || head.readUInt32LE(0) !== SEA_MAGIC) return undefined;
  const flags = head.readUInt32LE(4);
  if (!(flags & FLAG_INCLUDE_ASSETS)) return undefined;
  // Node 24.x writes one byte (the main script's module format) after the flags; earlier ones did not.
  for (const start of [9, 8]) {
    try {
      const spans = assetsFrom(readAt, { ...blob, start, flags });
      if ([...expected].every(([key, length]) => spans.get(key)?.length === length)) return spans;
    } catch (err) {
      if (!(err instanceof Misread)) throw err;
    }
  }
  return undefined;
}

/** `readAt` over an open file descriptor. */
function fdReader(fd: number): ReadAt {
  return (position, length) => {
    const buffer = Buffer.allocUnsafe(length);
    let filled = 0;
    while (filled < length) {
      const n = readSync(fd, buffer, filled, length - filled, position + filled);
      if (n === 0) break;
      filled += n;
    }
    return filled === length ? buffer : buffer.subarray(0, filled);
  };
}

/** Opens `path`, hands `use` a reader of it, and closes it again. */
export function withFileReader<T>(path: string, use: (readAt: ReadAt) => T): T {
  const fd = openSync(path, 'r');
  try {
    return use(fdReader(fd));
  } finally {
    closeSync(fd);
  }
}

/** The running executable, as the kernel started it (the same file even if a new one took its name). */
export const SELF_EXECUTABLE = '/proc/self/exe';

/**
 * Reads assets of the running executable from its file: `read(key)` is a fresh copy of the asset's
 * bytes, or undefined when its span is unknown. Undefined as a whole when the executable cannot be
 * opened (no /proc, an execute-only file) or is not laid out as expected.
 */
export function seaFileReader(expected: ReadonlyMap<string, number>, path = SELF_EXECUTABLE): { read(key: string): Buffer | undefined } | undefined {
  let spans: Map<string, AssetSpan> | undefined;
  try {
    spans = withFileReader(path, (readAt) => locateSeaAssets(readAt, expected));
  } catch {
    // Not opened or not read (ENOENT, EACCES, EISDIR, EIO): the mapping may still be readable.
    return undefined;
  }
  if (!spans) return undefined;
  const found = spans;
  return {
    read(key) {
      const span = found.get(key);
      if (!span) return undefined;
      const bytes = withFileReader(path, (readAt) => readAt(span.offset, span.length));
      if (bytes.length !== span.length) throw new Error(`the executable ends inside its asset ${key}`);
      return bytes;
    },
  };
}
