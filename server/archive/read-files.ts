import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { packFiles } from './packed-files';
import type { FileStat, FileToRead, ReadOutcome, ReadReply } from './worker-protocol';

/** Files up to this size are read whole with their batch; larger ones are streamed when written. */
export const SMALL_FILE = 256 * 1024;
// At most this much content is read per batch; files beyond it are streamed instead.
const BATCH_READ_BYTES = 4 * 1024 * 1024;

// O_NOFOLLOW: a file swapped for a symlink since it was checked is not followed out of the scope.
// O_NONBLOCK: one swapped for a FIFO cannot block the reader (regular files ignore it).
const openFlags = (file: FileToRead): number => constants.O_RDONLY | constants.O_NONBLOCK | (file.follow ? 0 : constants.O_NOFOLLOW);

interface Read {
  outcome: ReadOutcome;
  data?: Buffer;
}

function readWhole(fd: number, size: number): Buffer {
  const data = Buffer.allocUnsafe(size);
  let filled = 0;
  while (filled < size) {
    const read = readSync(fd, data, filled, size - filled, filled);
    if (read === 0) break;
    filled += read;
  }
  return data.subarray(0, filled);
}

function readOne(file: FileToRead, budget: number): Read {
  const fd = openSync(file.path, openFlags(file));
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return { outcome: { status: 'skip' } };
    const stat: FileStat = { size: stats.size, mode: stats.mode, mtimeMs: stats.mtimeMs };
    if (stats.size > SMALL_FILE || stats.size > budget) return { outcome: { status: 'large', ...stat } };
    // A file that grew since fstat is cut at that size, the size its header announces.
    const data = readWhole(fd, stats.size);
    return { outcome: { status: 'data', length: data.length, ...stat }, data };
  } finally {
    closeSync(fd);
  }
}

/**
 * Opens each file (open, fstat, read, close: most of the work of archiving small files) and
 * reads the small ones whole, into one fresh buffer the caller may own. Runs in the reader
 * worker, or on the main thread when no worker is wanted.
 */
export function readFiles(files: readonly FileToRead[]): ReadReply {
  let budget = BATCH_READ_BYTES;
  const contents: Buffer[] = [];
  const outcomes = files.map((file): ReadOutcome => {
    try {
      const { outcome, data } = readOne(file, budget);
      if (data) {
        contents.push(data);
        budget -= data.length;
      }
      return outcome;
    } catch (err) {
      return { status: 'failed', error: err instanceof Error ? err.message : String(err) };
    }
  });
  return { kind: 'read', bytes: packFiles(contents).bytes, outcomes };
}
