import { randomBytes } from 'node:crypto';
import type { BigIntStats } from 'node:fs';
import { chmod, chown, lstat, mkdir, open, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { AppError } from '../errors';
import { syncDir } from '../lib/sync-dir';
import { BatchedWriter, writeBody, type PositionalFile } from './batched-writer';
import { errnoCode, fsError, parentError } from './fs-error';
import { TEMP_PREFIX } from './hidden';
import type { Target } from './scope';
import { pathChanged } from './changes';

/** Modes for what a write creates (settings.fileMode / dirMode, api.md §5.8; umask applies). */
export interface CreateModes {
  fileMode: number;
  dirMode: number;
}

export interface WriteOptions extends CreateModes {
  /** Test seam: where the bytes for the temporary file go (default: the file itself). */
  file?: (fh: FileHandle) => PositionalFile;
}

/** A fresh temporary sibling name beside `path` (hidden from every listing by TEMP_PREFIX). */
export function tempSibling(path: string): string {
  return join(dirname(path), `${TEMP_PREFIX}${randomBytes(8).toString('hex')}`);
}

/**
 * lstat (bigint), or null when nothing is there; other errors are thrown, unless `lenient`
 * (a walk or a probe that reads any failure, such as a racing delete, as nothing there).
 */
export async function lstatOrNull(path: string, opts: { lenient?: boolean } = {}): Promise<BigIntStats | null> {
  try {
    return await lstat(path, { bigint: true });
  } catch (err) {
    if (opts.lenient === true || errnoCode(err) === 'ENOENT') return null;
    throw err;
  }
}

/** mkdir -p of the directory that holds `path` (dirMode); a file in the way answers 404. */
export async function makeParent(path: string, dirMode: number): Promise<void> {
  try {
    await mkdir(dirname(path), { recursive: true, mode: dirMode });
  } catch (err) {
    throw parentError(err);
  }
}

/**
 * Removes whatever is at `path` (a cleanup after a failed write): a missing entry, or a path
 * that runs through a file and so holds nothing, is fine; other failures are translated.
 */
export async function removeIfPresent(path: string, opts: { recursive: boolean }): Promise<void> {
  try {
    await rm(path, { force: true, recursive: opts.recursive });
  } catch (err) {
    if (errnoCode(err) !== 'ENOTDIR') throw fsError(err);
  }
}

/** Keeps the replaced file's mode exactly and, when we may, its owner. */
export async function keepIdentity(tmp: string, old: BigIntStats): Promise<void> {
  await chmod(tmp, Number(old.mode) & 0o7777);
  try {
    await chown(tmp, Number(old.uid), Number(old.gid));
  } catch {
    // Only root may give files away; an unprivileged server keeps its own ownership.
  }
}

/** Writes a body into a new file `tmp` (mode `opts.mode`) and fsyncs it. */
export async function fill(tmp: string, body: Readable, opts: WriteOptions & { mode: number }): Promise<void> {
  const fh = await open(tmp, 'wx', opts.mode);
  try {
    // Written in large batches with one fsync at the end; the caller drains the body on failure.
    await writeBody(body, new BatchedWriter(opts.file?.(fh) ?? fh, 0));
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/**
 * Writes a request body to a gated file atomically (api.md §3.6 step 4, §14): parents are created
 * (dirMode), the bytes go to a hidden temporary sibling that is fsynced and renamed over the
 * target, keeping an existing file's mode. A body that fails halfway, a full disk or a crash
 * leave the old file untouched and no temporary behind. Returns the final stat (for the ETag).
 */
export async function writeFileAtomic(target: Target, body: Readable, opts: WriteOptions): Promise<BigIntStats> {
  // An in-scope symlink is written through: its (already confined) target receives the bytes.
  const dest = target.resolved;
  try {
    await makeParent(dest, opts.dirMode);
    const old = await lstatOrNull(dest);
    if (old?.isDirectory()) throw new AppError('bad_request', `cannot upload to a directory ${basename(target.path)}`);
    const tmp = tempSibling(dest);
    try {
      await fill(tmp, body, { ...opts, mode: old ? 0o600 : opts.fileMode });
      if (old) await keepIdentity(tmp, old);
      await rename(tmp, dest);
    } catch (err) {
      await removeIfPresent(tmp, { recursive: false });
      throw err;
    }
    await syncDir(dirname(dest));
    await pathChanged(dest);
    return await stat(dest, { bigint: true });
  } catch (err) {
    body.resume();
    throw fsError(err);
  }
}

/** mkdir -p of a gated directory with dirMode; an existing directory is fine, a file is 409. */
export async function makeDirectory(target: Target, dirMode: number): Promise<void> {
  try {
    await mkdir(target.resolved, { recursive: true, mode: dirMode });
  } catch (err) {
    throw fsError(err);
  }
  await pathChanged(target.resolved);
}

/**
 * Removes a gated path recursively without following symlinks (a link is removed, never what
 * it points to). Refuses (403) when the server's own files lie below it.
 */
export async function removeTree(target: Target, guards: (real: string) => boolean): Promise<void> {
  if (guards(target.real) || guards(target.resolved)) throw new AppError('forbidden');
  try {
    await lstat(target.real);
    await rm(target.real, { recursive: true, force: false, maxRetries: 2 });
  } catch (err) {
    throw fsError(err);
  }
  await pathChanged(target.real);
}

/**
 * Removes the file a failed request wrote (`written`, its stat after the write) unless another
 * request has replaced it meanwhile (another file, a folder) or removed it already.
 */
export async function discardFile(target: Target, written: BigIntStats): Promise<void> {
  const now = await lstatOrNull(target.resolved).catch(() => null);
  if (now?.dev !== written.dev || now.ino !== written.ino) return;
  await removeIfPresent(target.resolved, { recursive: false });
  await pathChanged(target.resolved);
}
