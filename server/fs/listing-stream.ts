import { readdir, stat } from 'node:fs/promises';
import type { Sorting } from '../state/schema';
import { fsError } from './fs-error';
import type { InfoOptions } from './info';
import { isVisible, listContext, listDirectoryJson, readItemLater, readItemNow, STAT_CHUNK, statEntry, withSubtitles, type ListContext } from './listing';
import { joinPath } from './paths';
import type { PathGate, Target } from './scope';
import { byteOrder, sortNamed } from './sort';
import { subtitleFinder, subtitleRelevant, type EntryKind } from './subtitles';

/** A directory's items as JSON texts, in the listing's order and in batches, and their counts. */
export interface DirectoryStream {
  /** Batches of items' JSON texts: one await per batch, not per item of a large folder. */
  items: Iterable<readonly string[]> | AsyncIterable<readonly string[]>;
  /** numDirs and numFiles: complete once `items` has been read to its end. */
  counts(): { numDirs: number; numFiles: number };
}

/** An entry as readdir typed it; `isDir` is what sorting sees (a symlink counts as its target). */
class Entry implements EntryKind {
  constructor(
    readonly name: string,
    readonly isDir: boolean,
    private readonly type: 'dir' | 'file' | 'other',
  ) {}

  /** Not a directory, not a symlink (the finder's test, as listing items gave it before). */
  isFile(): boolean {
    return this.type === 'file';
  }

  /** A directory itself, not a symlink to one. */
  isDirectory(): boolean {
    return this.type === 'dir';
  }
}

/** By name (and by an unknown key, §5.6) the order follows from names and types alone. */
function orderFromNames(sorting: Sorting): boolean {
  return sorting.by !== 'size' && sorting.by !== 'modified';
}

/** Whether an entry readdir could not type, or a symlink, is a directory once followed. */
async function followedIsDir(real: string): Promise<boolean> {
  try {
    return (await stat(real)).isDirectory();
  } catch {
    return false;
  }
}

async function readEntries(ctx: ListContext): Promise<Entry[]> {
  let dirents;
  try {
    dirents = await readdir(ctx.dir.real, { withFileTypes: true });
  } catch (err) {
    throw fsError(err);
  }
  const entries: Entry[] = [];
  for (const d of dirents.sort((a, b) => byteOrder(a.name, b.name))) {
    if (!isVisible(ctx, d.name)) continue;
    const typed = d.isDirectory() || d.isFile();
    const isDir = typed ? d.isDirectory() : await followedIsDir(joinPath(ctx.dir.real, d.name));
    entries.push(new Entry(d.name, isDir, d.isDirectory() ? 'dir' : d.isSymbolicLink() ? 'other' : 'file'));
  }
  return entries;
}

/**
 * The items of a gated directory as a stream of JSON texts (same items, order and texts as
 * listDirectoryJson). Sorted by name, the order is known from readdir alone: entries are then
 * lstat'ed and described while the answer is being sent, at the socket's pace, so a 100,000-entry
 * folder neither waits for every lstat before its first byte nor holds every item's text at once.
 * By size or modified time every entry must be read first: that is listDirectoryJson.
 */
export async function streamDirectoryJson(gate: PathGate, dir: Target, opts: InfoOptions & { sorting: Sorting }): Promise<DirectoryStream> {
  if (!orderFromNames(opts.sorting)) {
    const listing = await listDirectoryJson(gate, dir, opts);
    return { items: [listing.items], counts: () => listing };
  }
  const ctx = await listContext(gate, dir, opts);
  const entries = await readEntries(ctx);
  if (opts.sorting.by === 'name' || opts.sorting.asc) sortNamed(entries, opts.sorting.asc);
  const counts = { numDirs: 0, numFiles: 0 };
  const finder = subtitleFinder(gate, dir, entries.filter(subtitleRelevant));
  async function* items(): AsyncGenerator<string[]> {
    for (let i = 0; i < entries.length; i += STAT_CHUNK) {
      if (i > 0) await new Promise((resolve) => setImmediate(resolve));
      const batch: string[] = [];
      for (const { name } of entries.slice(i, i + STAT_CHUNK)) {
        const entry = statEntry(ctx, name);
        let item = readItemNow(ctx, entry);
        if (item === undefined) item = await readItemLater(ctx, entry);
        if (!item) continue;
        if (item.video) await withSubtitles(finder, item);
        if (item.isDir) counts.numDirs++;
        else counts.numFiles++;
        batch.push(item.json);
      }
      yield batch;
    }
  }
  return { items: items(), counts: () => counts };
}
