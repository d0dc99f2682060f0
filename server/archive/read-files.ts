import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { packReply, type ReadContent } from './prepare-files';
import type { FileStat, FileToRead, Preparation, ReadOutcome, ReadReply } from './worker-protocol';

/** Files up to this size are read whole with their batch; larger ones are streamed when written. */
export const SMALL_FILE = 256 * 1024;
// At most this much content is read per batch; files beyond it are streamed instead.
const BATCH_READ_BYTES = 4 * 1024 * 1024;

// O_NOFOLLOW: a file swapped for a symlink since it was checked is not followed out of the scope.
// O_NONBLOCK: one swapped for a FIFO cannot block the reader (regular files ignore it).
const openFlags = (file: FileToRead): number => constants.O_RDONLY | constants.O_NONBLOCK | (file.follow ? 0 : constants.O_NOFOLLOW);

/**
 * Where a batch's small files are read, one per thread, reused by every batch: reading each file
 * into a buffer of its own and then packing them all made two allocations per file, and 20,000
 * small buffers waiting for a collection were most of an archive's memory.
 */
let arena: Buffer | undefined;

/** Reads a file of `size` bytes into the arena at `at`; returns the bytes read (fewer if it shrank). */
function readInto(fd: number, size: number, at: number): number {
  const into = (arena ??= Buffer.allocUnsafeSlow(BATCH_READ_BYTES));
  let filled = 0;
  while (filled < size) {
    const read = readSync(fd, into, at + filled, size - filled, filled);
    if (read === 0) break;
    filled += read;
  }
  return filled;
}

function readOne(file: FileToRead, at: number): ReadOutcome {
  const fd = openSync(file.path, openFlags(file));
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return { status: 'skip' };
    const stat: FileStat = { size: stats.size, mode: stats.mode, mtimeMs: stats.mtimeMs };
    if (stats.size > SMALL_FILE || stats.size > BATCH_READ_BYTES - at) return { status: 'large', ...stat };
    // A file that grew since fstat is cut at that size, the size its header announces.
    return { status: 'data', length: readInto(fd, stats.size, at), ...stat };
  } finally {
    closeSync(fd);
  }
}

/**
 * Opens each file (open, fstat, read, close: most of the work of archiving small files) and
 * reads the small ones whole, one after another, then packs their contents, prepared for the
 * archive's format (see Preparation), into one fresh buffer the caller may own. Runs in the
 * reader worker, or on the main thread when no worker is wanted.
 */
export function readFiles(files: readonly FileToRead[], prepare: Preparation = 'raw'): ReadReply {
  let used = 0;
  const reads = files.map((file): ReadContent => {
    try {
      const outcome = readOne(file, used);
      if (outcome.status !== 'data' || !arena) return { file, outcome, content: undefined };
      const content = arena.subarray(used, used + outcome.length);
      used += outcome.length;
      return { file, outcome, content };
    } catch (err) {
      return { file, outcome: { status: 'failed', error: err instanceof Error ? err.message : String(err) }, content: undefined };
    }
  });
  return packReply(reads, prepare);
}
