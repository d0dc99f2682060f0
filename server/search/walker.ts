import type { Dirent } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { translated } from '../fs/fs-error';

/**
 * An entry met by the walk: a Dirent as readdir reports it (its type from d_type, so a symlink
 * is never a directory), with `parentPath` the real directory it was read from. The walk makes
 * no object and no path string of its own per entry: a 200,000-entry search spends its time
 * in readdir, and only matches need their relative path built (`relativePath`).
 */
export type WalkEntry = Dirent;

/** Decides whether the walk reads a directory (the server's own folders are never read). */
export type EnterFilter = (entry: WalkEntry) => boolean;

/** A directory read in flight; `settled` tells whether awaiting it would wait for the disk. */
interface Listing {
  settled: boolean;
  entries: Promise<Dirent[] | null>;
}

interface Frame {
  entries: Dirent[];
  /** Positions of the directories the walk will read. */
  enters: boolean[];
  index: number;
  /** Reads started ahead, by position in `entries`. */
  ahead: Map<number, Listing>;
  /** Next position whose read has not been started yet. */
  cursor: number;
}

// Directory reads started ahead of the walk in each open directory: the output stays in
// lexical pre-order but the thread pool stays busy, which is where the time goes.
const PREFETCH = 8;
// Entries reported at once when no disk wait forces an earlier report.
const BATCH = 4096;

function byName(a: Dirent, b: Dirent): number {
  if (a.name === b.name) return 0;
  return a.name < b.name ? -1 : 1;
}

/** The real path of an entry. */
export function realPathOf(entry: WalkEntry): string {
  const parent = entry.parentPath;
  return parent.endsWith('/') ? `${parent}${entry.name}` : `${parent}/${entry.name}`;
}

/** A match's size and ISO modified time (a symlink's target's); none when it vanished meanwhile. */
export async function detailsOf(entry: WalkEntry): Promise<{ size?: number; modified?: string }> {
  const stats = await stat(realPathOf(entry)).catch(() => null);
  return stats ? { size: stats.size, modified: stats.mtime.toISOString() } : {};
}

/** The entry's path relative to the walk's root, '/'-separated, no leading slash. */
export function relativePath(root: string, entry: WalkEntry): string {
  const prefix = root.endsWith('/') ? root : `${root}/`;
  const parent = entry.parentPath === root ? '' : entry.parentPath.slice(prefix.length);
  return parent === '' ? entry.name : `${parent}/${entry.name}`;
}

/** Where a walk starts: the canonical real path of a gated path, and whether it is a folder. */
export async function walkRoot(real: string): Promise<{ real: string; isDir: boolean }> {
  const canonical = await translated(() => realpath(real));
  const stats = await translated(() => stat(canonical));
  return { real: canonical, isDir: stats.isDirectory() };
}

/** Reads and sorts one directory; null when it cannot be read (skipped, like upstream's walk). */
function list(dir: string): Listing {
  const listing: Listing = { settled: false, entries: Promise.resolve(null) };
  listing.entries = readdir(dir, { withFileTypes: true }).then(
    (dirents) => dirents.sort(byName),
    () => null,
  );
  void listing.entries.finally(() => {
    listing.settled = true;
  });
  return listing;
}

/** Keeps up to PREFETCH reads of the frame's later sub-directories in flight. */
function prefetch(frame: Frame): void {
  while (frame.ahead.size < PREFETCH && frame.cursor < frame.entries.length) {
    const entry = frame.entries[frame.cursor];
    if (entry && frame.enters[frame.cursor]) frame.ahead.set(frame.cursor, list(realPathOf(entry)));
    frame.cursor++;
  }
}

function newFrame(entries: Dirent[], enter: EnterFilter): Frame {
  const enters = entries.map((entry) => entry.isDirectory() && enter(entry));
  const frame: Frame = { entries, enters, index: 0, ahead: new Map(), cursor: 0 };
  prefetch(frame);
  return frame;
}

/** The read of the directory at the frame's current position (started earlier or now). */
function takeListing(frame: Frame, entry: Dirent): Listing {
  const listing = frame.ahead.get(frame.index) ?? list(realPathOf(entry));
  frame.ahead.delete(frame.index);
  prefetch(frame);
  return listing;
}

/**
 * Walks the tree below `root` (an absolute real path) in lexical pre-order, like Go's
 * filepath.Walk: never follows symbolic links, skips unreadable directories, excludes the root.
 * Entries come in batches (in order); a batch is handed over before any wait for the disk, so
 * results stream as they are found. Directories `enter` refuses are reported but not read.
 * Stops as soon as `signal` is aborted.
 */
export async function* walkTree(root: string, signal: AbortSignal, enter: EnterFilter = () => true): AsyncGenerator<WalkEntry[]> {
  const first = await list(root).entries;
  if (first === null) return;
  const stack: Frame[] = [newFrame(first, enter)];
  let batch: WalkEntry[] = [];
  while (stack.length > 0 && !signal.aborted) {
    const frame = stack[stack.length - 1] as Frame;
    const entry = frame.entries[frame.index];
    if (entry === undefined) {
      stack.pop();
      continue;
    }
    batch.push(entry);
    const listing = frame.enters[frame.index] === true ? takeListing(frame, entry) : undefined;
    frame.index++;
    if (batch.length >= BATCH || (listing !== undefined && !listing.settled)) {
      yield batch;
      batch = [];
    }
    if (listing === undefined) continue;
    const children = await listing.entries;
    if (children !== null && children.length > 0) stack.push(newFrame(children, enter));
  }
  if (batch.length > 0 && !signal.aborted) yield batch;
}
