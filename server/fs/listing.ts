import type { BigIntStats } from 'node:fs';
import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Sorting } from '../state/schema';
import { fsError } from './fs-error';
import { isTempName } from './hidden';
import { describe, type EntryStat, type FileInfo, type InfoOptions } from './info';
import { joinPath } from './paths';
import type { PathGate, Target } from './scope';
import { sortItems } from './sort';
import { subtitleFinder } from './subtitles';

/** The children part of a directory's FileInfo (api.md §4.3, §5.3). */
export interface DirectoryItems {
  items: FileInfo[];
  numDirs: number;
  numFiles: number;
}

/** How many entries are stat'ed at once: enough to keep libuv's pool busy, bounded in memory. */
const STAT_CONCURRENCY = 64;

/** Maps `fn` over `items` with at most `limit` calls in flight, keeping order. */
export async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** Directory entry names sorted bytewise, read through the gated directory. */
export async function readNames(dir: Target): Promise<string[]> {
  try {
    const names = await readdir(dir.real);
    return names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  } catch (err) {
    throw fsError(err);
  }
}

/** lstat plus, for a symlink, the confined target (null: skip the entry, §5.3). */
async function entryStat(gate: PathGate, real: string): Promise<EntryStat | null> {
  let own: BigIntStats;
  try {
    own = await lstat(real, { bigint: true });
  } catch {
    return null;
  }
  if (!own.isSymbolicLink()) return { own, effective: own, isSymlink: false, dangling: false };
  try {
    if (!(await gate.confines(real))) return null;
  } catch {
    return null;
  }
  try {
    return { own, effective: await stat(real, { bigint: true }), isSymlink: true, dangling: false };
  } catch {
    return { own, effective: own, isSymlink: true, dangling: true };
  }
}

interface Item {
  info: FileInfo;
  mtimeNs: bigint;
  name: string;
  size: number;
  isDir: boolean;
}

interface ListContext {
  gate: PathGate;
  dir: Target;
  dirReal: string;
  opts: InfoOptions;
}

async function readItem(ctx: ListContext, name: string): Promise<Item | null> {
  if (isTempName(name)) return null;
  const path = joinPath(ctx.dir.path, name);
  if (!ctx.gate.allows(path) || ctx.gate.hides(join(ctx.dirReal, name))) return null;
  const real = join(ctx.dir.real, name);
  const s = await entryStat(ctx.gate, real);
  if (!s) return null;
  const info = await describe({ path, real }, s, { ...ctx.opts, listingItem: true });
  return { info, mtimeNs: s.effective.mtimeNs, name, size: info.size, isDir: info.isDir };
}

/**
 * The items of a gated directory, sorted (§5.6): entries denied by rules or dotfiles, escaping
 * symlinks, unreadable entries and the server's own files are left out.
 */
export async function listDirectory(gate: PathGate, dir: Target, opts: InfoOptions & { sorting: Sorting }): Promise<DirectoryItems> {
  const names = await readNames(dir);
  let dirReal: string;
  try {
    dirReal = await realpath(dir.real);
  } catch (err) {
    throw fsError(err);
  }
  const ctx: ListContext = { gate, dir, dirReal, opts: { modify: opts.modify, sniff: opts.sniff } };
  const read = await mapLimited(names, STAT_CONCURRENCY, (name) => readItem(ctx, name));
  const items = read.filter((x): x is Item => x !== null);
  await addSubtitles(gate, dir, items);
  sortItems(items, opts.sorting);
  const numDirs = items.filter((i) => i.isDir).length;
  return { items: items.map((i) => i.info), numDirs, numFiles: items.length - numDirs };
}

async function addSubtitles(gate: PathGate, dir: Target, items: Item[]): Promise<void> {
  const videos = items.filter((i) => i.info.type === 'video');
  if (videos.length === 0) return;
  const finder = subtitleFinder(gate, dir);
  for (const v of videos) {
    const subs = await finder.forVideo(v.name);
    if (subs.length > 0) v.info.subtitles = subs;
  }
}
