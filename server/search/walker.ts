import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';

/** One entry met by the walk, as lstat sees it (a symlink is never a directory). */
export interface WalkEntry {
  /** '/'-separated, relative to the walk's root, no leading slash. */
  path: string;
  name: string;
  isDir: boolean;
  isSymlink: boolean;
}

/** A directory read in flight; `settled` tells whether awaiting it would wait for the disk. */
interface Listing {
  settled: boolean;
  entries: Promise<WalkEntry[] | null>;
}

/** Decides whether the walk reads a directory (the server's own folders are never read). */
export type EnterFilter = (entry: WalkEntry) => boolean;

interface Frame {
  entries: WalkEntry[];
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
const BATCH = 1024;

function byName(a: Dirent, b: Dirent): number {
  if (a.name === b.name) return 0;
  return a.name < b.name ? -1 : 1;
}

function toEntry(dir: string, dirent: Dirent): WalkEntry {
  const path = dir === '' ? dirent.name : `${dir}/${dirent.name}`;
  return { path, name: dirent.name, isDir: dirent.isDirectory(), isSymlink: dirent.isSymbolicLink() };
}

/** Reads and sorts one directory; null when it cannot be read (skipped, like upstream's walk). */
function list(root: string, dir: string): Listing {
  const listing: Listing = { settled: false, entries: Promise.resolve(null) };
  listing.entries = readdir(dir === '' ? root : `${root}/${dir}`, { withFileTypes: true }).then(
    (dirents) => dirents.sort(byName).map((dirent) => toEntry(dir, dirent)),
    () => null,
  );
  void listing.entries.finally(() => {
    listing.settled = true;
  });
  return listing;
}

/** Keeps up to PREFETCH reads of the frame's later sub-directories in flight. */
function prefetch(root: string, frame: Frame): void {
  while (frame.ahead.size < PREFETCH && frame.cursor < frame.entries.length) {
    const entry = frame.entries[frame.cursor];
    if (entry && frame.enters[frame.cursor]) frame.ahead.set(frame.cursor, list(root, entry.path));
    frame.cursor++;
  }
}

function newFrame(root: string, entries: WalkEntry[], enter: EnterFilter): Frame {
  const enters = entries.map((entry) => entry.isDir && enter(entry));
  const frame: Frame = { entries, enters, index: 0, ahead: new Map(), cursor: 0 };
  prefetch(root, frame);
  return frame;
}

/** The read of the directory at the frame's current position (started earlier or now). */
function takeListing(root: string, frame: Frame, entry: WalkEntry): Listing {
  const listing = frame.ahead.get(frame.index) ?? list(root, entry.path);
  frame.ahead.delete(frame.index);
  prefetch(root, frame);
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
  const first = await list(root, '').entries;
  if (first === null) return;
  const stack: Frame[] = [newFrame(root, first, enter)];
  let batch: WalkEntry[] = [];
  while (stack.length > 0 && !signal.aborted) {
    const frame = stack[stack.length - 1] as Frame;
    const entry = frame.entries[frame.index];
    if (entry === undefined) {
      stack.pop();
      continue;
    }
    batch.push(entry);
    if (frame.enters[frame.index] === true) {
      const listing = takeListing(root, frame, entry);
      if (!listing.settled || batch.length >= BATCH) {
        yield batch;
        batch = [];
      }
      const children = await listing.entries;
      frame.index++;
      if (children !== null && children.length > 0) stack.push(newFrame(root, children, enter));
      continue;
    }
    frame.index++;
    if (batch.length >= BATCH) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0 && !signal.aborted) yield batch;
}
