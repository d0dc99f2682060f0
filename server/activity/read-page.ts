import { open, stat } from 'node:fs/promises';
import { AppError } from '../errors';
import { linesBackwards, type PlacedLine } from './backwards';
import { matches, parseEntry, type ActivityEntry, type ActivityFilters, type ActivityPage } from './entry';

interface Segment {
  path: string;
  ino: number;
  size: number;
}

/** The size and inode of a log file, or undefined when there is none. */
export async function segment(path: string): Promise<Segment | undefined> {
  const s = await stat(path).catch(() => undefined);
  return s ? { path, ino: s.ino, size: s.size } : undefined;
}

/** The cursor of the file log: `<inode>:<offset>`, the file and where its next older line ends. */
function parseFileCursor(cursor: string): { ino: number; end: number } {
  const m = /^(\d{1,20}):(\d{1,15})$/.exec(cursor);
  if (!m) throw new AppError('bad_request', 'cursor is not one this server gave');
  return { ino: Number(m[1]), end: Number(m[2]) };
}

/** The files to read (current, then previous), newest first, and where reading starts in each. */
async function planOf(path: string, cursor: string | undefined): Promise<Array<{ seg: Segment; end: number }>> {
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

interface Scan {
  filters: ActivityFilters;
  limit: number;
  quick: (line: string) => boolean;
  entries: ActivityEntry[];
}

/** Takes the lines of one chunk: 'full' at the line that would pass the limit, 'past' before `since`. */
function take(scan: Scan, lines: PlacedLine[]): { stop: 'full' | 'past'; at: PlacedLine } | undefined {
  for (const placed of lines) {
    if (scan.entries.length >= scan.limit) return { stop: 'full', at: placed };
    if (!scan.quick(placed.line)) continue;
    const entry = parseEntry(placed.line);
    if (!entry) continue;
    // Entries are in time order: past `since`, nothing older can match.
    if (scan.filters.since !== undefined && Date.parse(entry.time) < scan.filters.since) return { stop: 'past', at: placed };
    if (matches(entry, scan.filters)) scan.entries.push(entry);
  }
  return undefined;
}

/** Reads one file backwards from `end`; answers the next cursor, null when no older entry can match, undefined at its start. */
async function scanFile(scan: Scan, seg: Segment, end: number): Promise<string | null | undefined> {
  const handle = await open(seg.path, 'r');
  try {
    for await (const lines of linesBackwards(handle, end)) {
      const stopped = take(scan, lines);
      if (stopped?.stop === 'past') return null;
      // The cursor resumes just past the line not taken (and its newline).
      if (stopped) return `${seg.ino}:${stopped.at.start + Buffer.byteLength(stopped.at.line) + 1}`;
    }
    return undefined;
  } finally {
    await handle.close();
  }
}

/** One page newest first across the current file `path` and the previous one, `<path>.1`. */
export async function readPage(path: string, query: { filters: ActivityFilters; limit: number; cursor: string | undefined }): Promise<ActivityPage> {
  const plan = await planOf(path, query.cursor);
  const scan: Scan = { filters: query.filters, limit: query.limit, quick: prefilter(query.filters), entries: [] };
  for (const [index, { seg, end }] of plan.entries()) {
    const next = await scanFile(scan, seg, end);
    if (next !== undefined) return { entries: scan.entries, next };
    const older = plan[index + 1];
    if (scan.entries.length >= scan.limit && older) return { entries: scan.entries, next: `${older.seg.ino}:${older.end}` };
  }
  return { entries: scan.entries, next: null };
}
