import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { permissions } from './entry';
import { zipReply } from './prepare-files';
import { BLOCK, padding, tarHeaderLength, writeTarHeader } from './tar-header';
import type { FileStat, FileToRead, Preparation, ReadOutcome, ReadReply } from './worker-protocol';

/** Files up to this size are read whole with their batch; larger ones are streamed when written. */
export const SMALL_FILE = 256 * 1024;
// At most this much content is read per batch; files beyond it are streamed instead.
const BATCH_READ_BYTES = 4 * 1024 * 1024;
// Room for a batch's tar headers and padding besides its content, before the arena must grow.
const ARENA_SLACK = 256 * 1024;

// O_NOFOLLOW: a file swapped for a symlink since it was checked is not followed out of the scope.
// O_NONBLOCK: one swapped for a FIFO cannot block the reader (regular files ignore it).
const openFlags = (file: FileToRead): number => constants.O_RDONLY | constants.O_NONBLOCK | (file.follow ? 0 : constants.O_NOFOLLOW);

/**
 * Where a batch's small files are read, one per thread, reused by every batch: reading each file
 * into a buffer of its own and then packing them all made two allocations per file, and 20,000
 * small buffers waiting for a collection were most of an archive's memory. A tar batch is laid
 * out here as its records (header, content, padding), so the reply is one copy of it.
 */
let arena = Buffer.allocUnsafeSlow(0);

/** A batch being read: bytes laid out in the arena, and content bytes read (the budget). */
interface Layout {
  used: number;
  content: number;
}

/** The arena, with room for `extra` more bytes after those laid out (grown when needed). */
function arenaFor(layout: Layout, extra: number): Buffer {
  const needed = layout.used + extra;
  if (arena.length < needed) {
    const grown = Buffer.allocUnsafeSlow(Math.max(needed, 2 * arena.length, BATCH_READ_BYTES + ARENA_SLACK));
    arena.copy(grown, 0, 0, layout.used);
    arena = grown;
  }
  return arena;
}

/** Reads a file of `size` bytes into `into` at `at`; returns the bytes read (fewer if it shrank). */
function readInto(fd: number, size: number, target: { into: Buffer; at: number }): number {
  const { into, at } = target;
  let filled = 0;
  while (filled < size) {
    const read = readSync(fd, into, at + filled, size - filled, filled);
    if (read === 0) break;
    filled += read;
  }
  return filled;
}

/** The content as is. A file that grew since fstat is cut at that size, the size its header announces. */
function readContent(fd: number, stat: FileStat, layout: Layout): ReadOutcome {
  const length = readInto(fd, stat.size, { into: arenaFor(layout, stat.size), at: layout.used });
  layout.used += length;
  layout.content += length;
  return { status: 'data', length, ...stat };
}

/** The file's whole tar record; its header announces the bytes read. */
function readRecord(fd: number, file: FileToRead & FileStat, layout: Layout): ReadOutcome {
  const { size, mode, mtimeMs } = file;
  const stat: FileStat = { size, mode, mtimeMs };
  const header = { name: file.name ?? '', isDir: false, size: stat.size, mode: permissions({ mode: stat.mode, isDir: false }), mtime: new Date(stat.mtimeMs) };
  const headerLength = tarHeaderLength(header);
  const into = arenaFor(layout, headerLength + stat.size + BLOCK);
  const at = layout.used;
  const length = readInto(fd, stat.size, { into, at: at + headerLength });
  writeTarHeader({ ...header, size: length }, into, at);
  const end = at + headerLength + length;
  const pad = padding(length).length;
  into.fill(0, end, end + pad);
  layout.used = end + pad;
  layout.content += length;
  return { status: 'data', length: headerLength + length + pad, ...stat, size: length };
}

function readOne(file: FileToRead, layout: Layout, prepare: Preparation): ReadOutcome {
  const fd = openSync(file.path, openFlags(file));
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return { status: 'skip' };
    const stat: FileStat = { size: stats.size, mode: stats.mode, mtimeMs: stats.mtimeMs };
    if (stats.size > SMALL_FILE || stats.size > BATCH_READ_BYTES - layout.content) return { status: 'large', ...stat };
    return prepare === 'tar' ? readRecord(fd, { ...file, ...stat }, layout) : readContent(fd, stat, layout);
  } finally {
    closeSync(fd);
  }
}

/**
 * Opens each file (open, fstat, read, close: most of the work of archiving small files) and
 * reads the small ones whole, one after another, prepared for the archive's format (see
 * Preparation), then packs them into one fresh buffer the caller may own. Runs in the reader
 * worker, or on the main thread when no worker is wanted.
 */
export function readFiles(files: readonly FileToRead[], prepare: Preparation = 'raw'): ReadReply {
  const layout: Layout = { used: 0, content: 0 };
  const outcomes = files.map((file): ReadOutcome => {
    try {
      return readOne(file, layout, prepare);
    } catch (err) {
      return { status: 'failed', error: err instanceof Error ? err.message : String(err) };
    }
  });
  if (prepare === 'zip') return zipReply(outcomes, arena);
  const bytes = new Uint8Array(layout.used);
  bytes.set(arena.subarray(0, layout.used));
  return { kind: 'read', bytes, outcomes };
}
