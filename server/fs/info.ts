import { createReadStream, type BigIntStats } from 'node:fs';
import { lstat, readFile, stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { FileInfo } from '../contract/resource';
import { AppError } from '../errors';
import { detectType, typeFromName, type FileType, type TypeQuery } from './detect-type';
import { errnoCode, fsError } from './fs-error';
import { baseName, extensionOf } from './paths';
import type { PathGate, Target } from './scope';
import { goFileMode, rfc3339Nano } from './stat-format';

/** A FileInfo of api.md §4.3 (the wire type, written once in contract/). */
export type { FileInfo };

/** What a stat of an entry says, with symlinks already followed where §5.3 wants that. */
export interface EntryStat {
  /** lstat of the entry itself. */
  own: BigIntStats;
  /** Size, mtime and kind: the link target's for a working in-scope link, else `own`. */
  effective: BigIntStats;
  isSymlink: boolean;
  /** A link whose target is missing. */
  dangling: boolean;
}

/** Stats a gated target: lstat, then for a symlink the (already confined) target (§5.3). */
export async function statTarget(target: Target): Promise<EntryStat> {
  let own: BigIntStats;
  try {
    own = await lstat(target.real, { bigint: true });
  } catch (err) {
    throw fsError(err);
  }
  if (!own.isSymbolicLink()) return { own, effective: own, isSymlink: false, dangling: false };
  try {
    return { own, effective: await stat(target.real, { bigint: true }), isSymlink: true, dangling: false };
  } catch (err) {
    const code = errnoCode(err);
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP') return { own, effective: own, isSymlink: true, dangling: true };
    throw fsError(err);
  }
}

/** How much a FileInfo should say. */
export interface InfoOptions {
  /** Requester may modify (`text` versus `textImmutable`). */
  modify: boolean;
  /** Sniffing mode of detectType. */
  sniff: TypeQuery['sniff'];
  /** Listing items take a working link's mode from its target; a top-level link keeps its own (§5.3). */
  listingItem?: boolean;
}

/** An entry by its user path, its path on disk and its name. */
interface Named {
  path: string;
  real: string;
  name: string;
}

/** The FileInfo fields of one entry, type included; `path` and `real` name the entry. */
export async function describe(entry: { path: string; real: string }, s: EntryStat, opts: InfoOptions): Promise<FileInfo> {
  const named = { ...entry, name: baseName(entry.path) };
  const type = typeWithoutReading(named, s, opts) ?? (await detectType(typeQuery(named, s, opts)));
  return describeAs(named, s, { type, listingItem: opts.listingItem });
}

/** describe, at once, when the entry's name and stat decide its type; undefined when its first bytes must. */
export function describeNow(entry: { path: string; real: string }, s: EntryStat, opts: InfoOptions): FileInfo | undefined {
  const named = { ...entry, name: baseName(entry.path) };
  const type = typeWithoutReading(named, s, opts);
  return type === undefined ? undefined : describeAs(named, s, { type, listingItem: opts.listingItem });
}

function typeQuery(entry: Named, s: EntryStat, opts: InfoOptions): TypeQuery {
  return { name: entry.name, real: entry.real, size: Number(s.effective.size), isFifo: s.effective.isFIFO(), modify: opts.modify, sniff: opts.sniff };
}

function typeWithoutReading(entry: Named, s: EntryStat, opts: InfoOptions): FileType | undefined {
  if (s.dangling) return 'invalid_link';
  if (s.effective.isDirectory()) return '';
  return typeFromName(typeQuery(entry, s, opts));
}

function describeAs(entry: Named, s: EntryStat, how: { type: FileType; listingItem?: boolean | undefined }): FileInfo {
  const isDir = s.effective.isDirectory();
  return {
    path: entry.path,
    name: entry.name,
    size: Number(s.effective.size),
    extension: isDir ? '' : extensionOf(entry.name),
    modified: rfc3339Nano(s.effective.mtimeNs),
    mode: goFileMode(s.isSymlink && !how.listingItem ? s.own : s.effective),
    isDir,
    isSymlink: s.isSymlink,
    type: how.type,
  };
}

/** Resolves and describes one user path (no listing, no content). */
export async function fileInfo(gate: PathGate, raw: string, opts: InfoOptions): Promise<{ info: FileInfo; target: Target; stat: EntryStat }> {
  const target = await gate.resolve(raw);
  const s = await statTarget(target);
  return { info: await describe(target, s, opts), target, stat: s };
}

/** The whole text of a `text`/`textImmutable` file for `content` (§5.4; at most 10 MiB by type). */
export async function readTextContent(target: Target): Promise<string> {
  try {
    return await readFile(target.real, 'utf8');
  } catch (err) {
    throw fsError(err);
  }
}

/** Throws 404 unless the gated target exists (used before writes that need an existing file). */
export async function requireExisting(gate: PathGate, raw: string): Promise<EntryStat> {
  const target = await gate.resolve(raw);
  const s = await statTarget(target);
  if (s.dangling) throw new AppError('not_found');
  return s;
}

/** `dev:ino` of the entry itself, or null when nothing is there (same-file test of §3.9 step 5). */
export async function identityOf(target: Target): Promise<string | null> {
  try {
    const s = await lstat(target.real, { bigint: true });
    return `${s.dev}:${s.ino}`;
  } catch {
    return null;
  }
}

/** True when something (a file, folder or link) exists at the gated path. */
export async function existsAt(target: Target): Promise<boolean> {
  return (await identityOf(target)) !== null;
}

/** The bytes of a gated file as a stream (X-Encoding answers, §3.4 step 2). */
export function fileStream(target: Target): Readable {
  return createReadStream(target.resolved);
}
