import { appendFile, open, rename, stat } from 'node:fs/promises';
import { AppError } from '../errors';
import { linesBackwards } from './backwards';
import { cutoffOf, matches, parseEntry, type ActivityEntry, type ActivityFilters, type ActivityLog, type ActivityPage } from './entry';
import type { RetentionDeps } from './memory-log';
import { pruneFile } from './prune-file';

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

interface Segment {
  path: string;
  ino: number;
  size: number;
}

async function segment(path: string): Promise<Segment | undefined> {
  const s = await stat(path).catch(() => undefined);
  return s ? { path, ino: s.ino, size: s.size } : undefined;
}

/** The cursor of the file log: `<inode>:<offset>`, the file and where its next older line ends. */
function parseFileCursor(cursor: string): { ino: number; end: number } {
  const m = /^(\d{1,20}):(\d{1,15})$/.exec(cursor);
  if (!m) throw new AppError('bad_request', 'cursor is not one this server gave');
  return { ino: Number(m[1]), end: Number(m[2]) };
}

/** The segments to read, newest first, and where reading starts in the first of them. */
async function startOf(path: string, cursor: string | undefined): Promise<Array<{ seg: Segment; end: number }>> {
  const found = [await segment(path), await segment(`${path}.1`)].filter((s): s is Segment => s !== undefined);
  if (cursor === undefined) return found.map((seg) => ({ seg, end: seg.size }));
  const { ino, end } = parseFileCursor(cursor);
  const at = found.findIndex((s) => s.ino === ino);
  // The file of the cursor was rotated away: its entries are gone.
  if (at < 0) return [];
  return found.slice(at).map((seg, i) => ({ seg, end: i === 0 ? Math.min(end, seg.size) : seg.size }));
}

/** A cheap test that lets most non-matching lines skip JSON.parse (a user filter). */
function prefilter(filters: ActivityFilters): (line: string) => boolean {
  if (filters.user === undefined) return () => true;
  const needle = `"user":${JSON.stringify(filters.user)}`;
  return (line) => line.includes(needle);
}

/** Reads pages newest first across the current and the previous file. */
async function readPage(path: string, filters: ActivityFilters, limit: number, cursor: string | undefined): Promise<ActivityPage> {
  const plan = await startOf(path, cursor);
  const entries: ActivityEntry[] = [];
  const quick = prefilter(filters);
  for (const [index, { seg, end }] of plan.entries()) {
    const handle = await open(seg.path, 'r');
    try {
      for await (const lines of linesBackwards(handle, end)) {
        for (const { line, start } of lines) {
          if (entries.length >= limit) return { entries, next: `${seg.ino}:${endOf(line, start)}` };
          if (!quick(line)) continue;
          const entry = parseEntry(line);
          if (!entry) continue;
          // Entries are in time order: past `since`, nothing older can match.
          if (filters.since !== undefined && Date.parse(entry.time) < filters.since) return { entries, next: null };
          if (matches(entry, filters)) entries.push(entry);
        }
      }
    } finally {
      await handle.close();
    }
    if (entries.length >= limit && index < plan.length - 1) return { entries, next: `${plan[index + 1]?.seg.ino}:${plan[index + 1]?.end}` };
  }
  return { entries, next: null };
}

/** The offset just past `line` (and its newline), where a cursor resumes reading backwards. */
function endOf(line: string, start: number): number {
  return start + Buffer.byteLength(line) + 1;
}

/**
 * The activity log of one instance: a JSON-lines file beside the database (mode 0600). Appends
 * are buffered and written within `flushMs` (and at close); the file is rotated at `maxBytes`,
 * keeping the previous one, and entries older than the retention are dropped at rotation and daily.
 */
export function createFileActivityLog(opts: FileLogOptions): ActivityLog {
  const maxBytes = opts.maxBytes ?? 100 * 1024 * 1024;
  const now = opts.now ?? Date.now;
  let buffer: string[] = [];
  let timer: NodeJS.Timeout | undefined;
  let size: number | undefined;
  // Writes, rotations and prunes run one at a time, in order.
  let chain: Promise<void> = Promise.resolve();
  const serial = (fn: () => Promise<void>): Promise<void> => {
    chain = chain.then(fn).catch((err: unknown) => opts.onError?.(err));
    return chain;
  };
  const prune = (): Promise<void> => serial(async () => {
    const cutoff = cutoffOf(opts.days(), now());
    await pruneFile(`${opts.path}.1`, cutoff);
    size = await pruneFile(opts.path, cutoff);
  });
  const write = async (): Promise<void> => {
    const text = buffer.join('');
    buffer = [];
    if (text === '') return;
    size ??= (await segment(opts.path))?.size ?? 0;
    await appendFile(opts.path, text, { mode: 0o600 });
    size += Buffer.byteLength(text);
    if (size < maxBytes) return;
    await rename(opts.path, `${opts.path}.1`);
    size = 0;
    await pruneFile(`${opts.path}.1`, cutoffOf(opts.days(), now()));
  };
  const flush = (): Promise<void> => {
    clearTimeout(timer);
    timer = undefined;
    return serial(write);
  };
  const daily = setInterval(() => void prune(), DAY_MS).unref();
  void prune();
  return {
    append(entry) {
      buffer.push(`${JSON.stringify(entry)}\n`);
      timer ??= setTimeout(() => void flush(), opts.flushMs ?? 1000).unref();
    },
    async query(filters, limit, cursor) {
      await flush();
      const cutoff = cutoffOf(opts.days(), now());
      const since = Math.max(filters.since ?? cutoff, cutoff);
      return readPage(opts.path, { ...filters, since }, limit, cursor);
    },
    prune,
    async close() {
      clearInterval(daily);
      await flush();
    },
  };
}
