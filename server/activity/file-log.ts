import { appendFile, rename } from 'node:fs/promises';
import { cutoffOf, type ActivityLog } from './entry';
import type { RetentionDeps } from './memory-log';
import { pruneFile } from './prune-file';
import { readPage, segment } from './read-page';

export interface FileLogOptions extends RetentionDeps {
  /** The current file, `<database>.activity.jsonl`; the previous one is `<path>.1`. */
  path: string;
  /** Rotation size in bytes (100 MB). */
  maxBytes?: number;
  /** How long an entry may wait in memory before it is written (1 s). */
  flushMs?: number;
  /** Told about a write that failed (the entries of that write are dropped). */
  onError?: (err: unknown) => void;
}

const DAY_MS = 24 * 60 * 60 * 1000;

interface WriterState {
  /** Lines not written yet. */
  buffer: string[];
  /** The current file's size, once known. */
  size: number | undefined;
}

/** Appends the buffered lines; at `maxBytes` the file becomes the previous one (the older previous is dropped). */
async function writeBuffered(state: WriterState, opts: FileLogOptions & { maxBytes: number; now: () => number }): Promise<void> {
  const text = state.buffer.join('');
  state.buffer = [];
  if (text === '') return;
  state.size ??= (await segment(opts.path))?.size ?? 0;
  await appendFile(opts.path, text, { mode: 0o600 });
  state.size += Buffer.byteLength(text);
  if (state.size < opts.maxBytes) return;
  await rename(opts.path, `${opts.path}.1`);
  state.size = 0;
  await pruneFile(`${opts.path}.1`, cutoffOf(opts.days(), opts.now()));
}

/**
 * The activity log of one instance: a JSON-lines file beside the database (mode 0600). Appends
 * are buffered and written within `flushMs` (and at close); the file is rotated at `maxBytes`,
 * keeping the previous one, and entries older than the retention are dropped at rotation and daily.
 */
export function createFileActivityLog(opts: FileLogOptions): ActivityLog {
  const maxBytes = opts.maxBytes ?? 100 * 1024 * 1024;
  const now = opts.now ?? Date.now;
  const state: WriterState = { buffer: [], size: undefined };
  // Writes, rotations and prunes run one at a time, in order.
  let chain: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const serial = (fn: () => Promise<void>): Promise<void> => {
    chain = chain.then(fn).catch((err: unknown) => opts.onError?.(err));
    return chain;
  };
  const prune = (): Promise<void> => serial(async () => {
    const cutoff = cutoffOf(opts.days(), now());
    await pruneFile(`${opts.path}.1`, cutoff);
    state.size = await pruneFile(opts.path, cutoff);
  });
  const flush = (): Promise<void> => {
    clearTimeout(timer);
    timer = undefined;
    return serial(() => writeBuffered(state, { ...opts, maxBytes, now }));
  };
  const daily = setInterval(() => void prune(), DAY_MS).unref();
  void prune();
  return {
    append(entry) {
      state.buffer.push(`${JSON.stringify(entry)}\n`);
      timer ??= setTimeout(() => void flush(), opts.flushMs ?? 1000).unref();
    },
    async query(filters, limit, cursor) {
      await flush();
      const cutoff = cutoffOf(opts.days(), now());
      const since = Math.max(filters.since ?? cutoff, cutoff);
      return readPage(opts.path, { filters: { ...filters, since }, limit, cursor });
    },
    prune,
    async close() {
      clearInterval(daily);
      await flush();
    },
  };
}
