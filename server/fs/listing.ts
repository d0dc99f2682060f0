import type { BigIntStats } from 'node:fs';
import { lstatSync } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import type { Sorting } from '../state/schema';
import { fsError } from './fs-error';
import { isTempName } from './hidden';
import { describe, describeNow, type EntryStat, type FileInfo, type InfoOptions } from './info';
import { joinPath } from './paths';
import type { PathGate, Target } from './scope';
import { byteOrder, sortItems } from './sort';
import { subtitleFinder, subtitleRelevant, type EntryKind, type SubtitleFinder } from './subtitles';

/** The children part of a directory's FileInfo (api.md §4.3, §5.3). */
export interface DirectoryItems {
  items: FileInfo[];
  numDirs: number;
  numFiles: number;
}

/** The same, each item already its JSON text (a compact, flat string; see listDirectoryJson). */
export interface DirectoryJson {
  items: string[];
  numDirs: number;
  numFiles: number;
}

/**
 * Entries are lstat'ed synchronously in chunks of this size, yielding to the event loop between
 * chunks: a synchronous lstat costs a few microseconds while a pooled one costs several times
 * that in scheduling, so a folder of 10,000 files lists in about the time of readdir + stat,
 * and no chunk holds the loop for more than a few milliseconds.
 */
export const STAT_CHUNK = 256;

/** Directory entry names sorted bytewise, read through the gated directory. */
export async function readNames(dir: Target): Promise<string[]> {
  try {
    return (await readdir(dir.real)).sort(byteOrder);
  } catch (err) {
    throw fsError(err);
  }
}

function lstatNow(real: string): BigIntStats | null {
  try {
    return lstatSync(real, { bigint: true, throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}

/** For a symlink, the confined target (null: skip the entry, §5.3). */
async function entryStat(gate: PathGate, real: string, own: BigIntStats | null): Promise<EntryStat | null> {
  if (!own) return null;
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

/**
 * One entry while listing. Its FileInfo is serialised at once (`json`): a flat string of ~180
 * bytes instead of an object whose concatenated strings keep their parts, about a quarter of the
 * memory for a 100,000-entry folder. Videos keep the object until their subtitles are added.
 */
export interface Item {
  json: string;
  video?: FileInfo | undefined;
  mtimeNs: bigint;
  name: string;
  size: number;
  isDir: boolean;
  isSymlink: boolean;
}

export interface ListContext {
  gate: PathGate;
  dir: Target;
  dirReal: string;
  opts: InfoOptions;
}

function itemOf(name: string, s: EntryStat, info: FileInfo): Item {
  const item: Item = { json: '', mtimeNs: s.effective.mtimeNs, name, size: info.size, isDir: info.isDir, isSymlink: info.isSymlink };
  if (info.type === 'video') item.video = info;
  else item.json = JSON.stringify(info);
  return item;
}

/** An entry of the directory being listed: its name, its path on disk and its lstat (null: skip it). */
export interface ListedEntry {
  name: string;
  real: string;
  own: BigIntStats | null;
}

/** lstat's the entry `name` of the directory being listed, now. */
export function statEntry(ctx: ListContext, name: string): ListedEntry {
  const real = joinPath(ctx.dir.real, name);
  return { name, real, own: lstatNow(real) };
}

/**
 * One listing item at once, when nothing about it needs waiting for (not a link, and a type its
 * name decides): no promise per entry of a large folder. null: skip it; undefined: use readItemLater.
 */
export function readItemNow(ctx: ListContext, entry: ListedEntry): Item | null | undefined {
  const { own, name } = entry;
  if (!own) return null;
  if (own.isSymbolicLink()) return undefined;
  const s: EntryStat = { own, effective: own, isSymlink: false, dangling: false };
  const info = describeNow({ path: joinPath(ctx.dir.path, name), real: entry.real }, s, ctx.opts);
  return info && itemOf(name, s, info);
}

/** The item readItemNow left: a link is followed (within the gate), a type its name leaves open is sniffed. */
export async function readItemLater(ctx: ListContext, entry: ListedEntry): Promise<Item | null> {
  const s = await entryStat(ctx.gate, entry.real, entry.own);
  if (!s) return null;
  const info = await describe({ path: joinPath(ctx.dir.path, entry.name), real: entry.real }, s, ctx.opts);
  return itemOf(entry.name, s, info);
}

/** What listing a gated directory needs to know once. */
export async function listContext(gate: PathGate, dir: Target, opts: InfoOptions): Promise<ListContext> {
  try {
    return { gate, dir, dirReal: await realpath(dir.real), opts: { modify: opts.modify, sniff: opts.sniff, listingItem: true } };
  } catch (err) {
    throw fsError(err);
  }
}

/** Entries denied by rules or dotfiles, temporary names and the server's own files are left out. */
export function isVisible(ctx: ListContext, name: string): boolean {
  return !isTempName(name) && ctx.gate.allows(joinPath(ctx.dir.path, name)) && !ctx.gate.hides(joinPath(ctx.dirReal, name));
}

/** The items of a gated directory as FileInfo objects (see listDirectoryJson). */
export async function listDirectory(gate: PathGate, dir: Target, opts: InfoOptions & { sorting: Sorting }): Promise<DirectoryItems> {
  const listing = await listDirectoryJson(gate, dir, opts);
  return { ...listing, items: listing.items.map((json) => JSON.parse(json) as FileInfo) };
}

/**
 * The items of a gated directory, sorted (§5.6), each as its FileInfo's JSON text: entries denied
 * by rules or dotfiles, escaping symlinks, unreadable entries and the server's own files are left out.
 */
export async function listDirectoryJson(gate: PathGate, dir: Target, opts: InfoOptions & { sorting: Sorting }): Promise<DirectoryJson> {
  const names = await readNames(dir);
  const ctx = await listContext(gate, dir, opts);
  const items: Item[] = [];
  const visible = names.filter((name) => isVisible(ctx, name));
  for (let i = 0; i < visible.length; i += STAT_CHUNK) {
    if (i > 0) await new Promise((resolve) => setImmediate(resolve));
    const chunk = visible.slice(i, i + STAT_CHUNK).map((name) => statEntry(ctx, name));
    const read = await Promise.all(chunk.map(async (entry) => {
      const now = readItemNow(ctx, entry);
      return now === undefined ? readItemLater(ctx, entry) : now;
    }));
    for (const item of read) if (item) items.push(item);
  }
  await addSubtitles(gate, dir, items);
  sortItems(items, opts.sorting);
  const numDirs = items.filter((i) => i.isDir).length;
  return { items: items.map((i) => i.json), numDirs, numFiles: items.length - numDirs };
}

async function addSubtitles(gate: PathGate, dir: Target, items: Item[]): Promise<void> {
  const videos = items.filter((i) => i.video !== undefined);
  if (videos.length === 0) return;
  // The listing's own lstat results (in name order) spare the finder a second readdir; only the
  // entries it looks at are handed over, not one object per item of a huge folder.
  const known: EntryKind[] = [];
  for (const i of items) {
    const kind = { name: i.name, isFile: () => !i.isDir && !i.isSymlink, isDirectory: () => i.isDir && !i.isSymlink };
    if (subtitleRelevant(kind)) known.push(kind);
  }
  const finder = subtitleFinder(gate, dir, known);
  for (const v of videos) await withSubtitles(finder, v);
}

/** A video item's JSON, with the subtitles found beside it. */
export async function withSubtitles(finder: SubtitleFinder, item: Item): Promise<void> {
  const info = item.video;
  if (!info) return;
  const subs = await finder.forVideo(item.name);
  if (subs.length > 0) info.subtitles = subs;
  item.json = JSON.stringify(info);
  item.video = undefined;
}
