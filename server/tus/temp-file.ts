import { createHash } from 'node:crypto';
import type { BigIntStats } from 'node:fs';
import { opendir, rename, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { AppError } from '../errors';
import { errnoCode, fsError, translated } from '../fs/fs-error';
import { TEMP_PREFIX } from '../fs/hidden';
import { keepIdentity, lstatOrNull } from '../fs/write';
import { syncDir } from '../lib/sync-dir';
import { pathChanged } from '../fs/changes';

/**
 * Where an unfinished tus upload lives (api.md §14): a hidden temporary file beside its target,
 * named `.filemgr-tmp-tus-<key>-<declared length>`. The key is a hash of the owner's id and the
 * target's real path, so HEAD, PATCH and DELETE find the upload from the target path alone and
 * another user's request finds nothing. The upload's whole state is on disk, which is how it
 * survives a restart: the name says whose upload it is and how long it will be, the file's size is
 * the offset, and its mtime tells when it was last written (for expiry).
 */

const TUS_PREFIX = `${TEMP_PREFIX}tus-`;
const NAME = /^([0-9a-f]{32})-(\d{1,16})$/;

/**
 * The key of `userId`'s upload to `realPath` (32 hex digits); a `tag` (the random id of an upload
 * through an upload link, beyond.md §2) makes it that one upload's, found only by whoever holds it.
 */
export function uploadKey(userId: number, realPath: string, tag?: string): string {
  const id = tag === undefined ? `${userId}\0${realPath}` : `${userId}\0${realPath}\0${tag}`;
  return createHash('sha256').update(id).digest('hex').slice(0, 32);
}

/** The temporary file of an upload with this key and declared length, beside `target`. */
export function tempPathOf(target: string, key: string, length: number): string {
  return join(dirname(target), `${TUS_PREFIX}${key}-${length}`);
}

/** A temporary file found on disk for a key: where it is, the declared length and its stat. */
export interface FoundTemp {
  path: string;
  length: number;
  stat: BigIntStats;
}

function lengthIn(name: string, key: string): number | undefined {
  if (!name.startsWith(TUS_PREFIX)) return undefined;
  const m = NAME.exec(name.slice(TUS_PREFIX.length));
  if (!m || m[1] !== key) return undefined;
  const length = Number(m[2]);
  return Number.isSafeInteger(length) ? length : undefined;
}

/** The upload key in the name of a tus temporary file, or undefined for any other file. */
export function keyOfTemp(path: string): string | undefined {
  const name = basename(path);
  if (!name.startsWith(TUS_PREFIX)) return undefined;
  return NAME.exec(name.slice(TUS_PREFIX.length))?.[1];
}

/**
 * Looks for the temporary file of `key` beside `target` (a directory read: only needed when the
 * upload is not in memory, i.e. after a restart). Undefined when there is none or the folder is gone.
 */
export async function findTemp(target: string, key: string): Promise<FoundTemp | undefined> {
  const dir = dirname(target);
  let entries;
  try {
    entries = await opendir(dir);
  } catch (err) {
    if (errnoCode(err) === 'ENOENT' || errnoCode(err) === 'ENOTDIR') return undefined;
    throw fsError(err);
  }
  for await (const entry of entries) {
    const length = entry.isFile() ? lengthIn(entry.name, key) : undefined;
    if (length === undefined) continue;
    const path = join(dir, entry.name);
    // Listed, then removed by a concurrent request on the same upload (a DELETE, a replacing POST).
    const stat = await translated(() => lstatOrNull(path));
    if (stat !== null) return { path, length, stat };
  }
  return undefined;
}

/** Every tus temporary file directly inside `dir`, with its stat (for sweeping abandoned ones). */
export async function tempsIn(dir: string): Promise<{ path: string; mtimeMs: number }[]> {
  const found: { path: string; mtimeMs: number }[] = [];
  try {
    for await (const entry of await opendir(dir)) {
      if (!entry.isFile() || !entry.name.startsWith(TUS_PREFIX)) continue;
      const s = await stat(join(dir, entry.name)).catch(() => undefined);
      if (s) found.push({ path: join(dir, entry.name), mtimeMs: s.mtimeMs });
    }
  } catch (err) {
    if (errnoCode(err) !== 'ENOENT' && errnoCode(err) !== 'ENOTDIR') throw fsError(err);
  }
  return found;
}

/**
 * Moves a complete upload into place: an existing file keeps its mode (and owner when possible),
 * a directory that appeared at the target meanwhile is refused (400), and the rename is made
 * durable. The temporary file was fsynced by the last PATCH.
 */
export async function renameIntoPlace(temp: string, target: string): Promise<BigIntStats> {
  try {
    const old = await lstatOrNull(target);
    if (old?.isDirectory()) throw new AppError('bad_request', `cannot upload to a directory ${basename(target)}`);
    if (old?.isFile()) await keepIdentity(temp, old);
    await rename(temp, target);
    await syncDir(dirname(target));
    await pathChanged(target);
    return await stat(target, { bigint: true });
  } catch (err) {
    throw fsError(err);
  }
}
