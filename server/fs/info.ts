import { createReadStream, type BigIntStats } from 'node:fs';
import { lstat, readFile, stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { FileInfo } from '../contract/resource';
import { AppError } from '../errors';
import { detectType, type FileType, type TypeQuery } from './detect-type';
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

/** The FileInfo fields of one entry, type included; `path` and `real` name the entry. */
export async function describe(entry: { path: string; real: string }, s: EntryStat, opts: InfoOptions): Promise<FileInfo> {
  const name = baseName(entry.path);
  const isDir = s.effective.isDirectory();
  let type: FileType = '';
  if (s.dangling) type = 'invalid_link';
  else if (!isDir) {
    type = await detectType({
      name,
      real: entry.real,
      size: Number(s.effective.size),
      isFifo: s.effective.isFIFO(),
      modify: opts.modify,
      sniff: opts.sniff,
    });
  }
  return {
    path: entry.path,
    name,
    size: Number(s.effective.size),
    extension: isDir ? '' : extensionOf(name),
    modified: rfc3339Nano(s.effective.mtimeNs),
    mode: goFileMode(s.isSymlink && !opts.listingItem ? s.own : s.effective),
    isDir,
    isSymlink: s.isSymlink,
    type,
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
