import { constants, type BigIntStats } from 'node:fs';
import { chmod, copyFile, lstat, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { AppError, isAppError } from '../errors';
import { errnoCode, fsError } from './fs-error';
import { isTempName } from './hidden';
import { joinPath } from './paths';
import type { PathGate, Target } from './scope';
import { syncDir } from '../lib/sync-dir';
import { type CreateModes, lstatOrNull, makeParent, removeIfPresent, tempSibling } from './write';
import { pathChanged, treeChanged } from './changes';

/** Collects the failures of a tree copy: the copy goes on, the request then fails (api.md §3.9). */
class Failures {
  first: Error | undefined;
  forbidden: AppError | undefined;
  add(err: unknown): void {
    const e = fsError(err);
    if (isAppError(e) && e.code === 'forbidden') this.forbidden ??= e;
    this.first ??= e;
  }
  throwAny(): void {
    if (this.forbidden) throw this.forbidden;
    if (this.first) throw this.first;
  }
}

/** A source and the destination it maps to. */
export interface Pair {
  src: Target;
  dst: Target;
}

interface CopyCtx {
  gate: PathGate;
  modes: CreateModes;
  failures: Failures;
}

/** Copies one file's bytes atomically (temporary sibling, rename) and gives it the source's mode. */
async function copyOneFile(from: string, to: string, mode: number): Promise<void> {
  const tmp = tempSibling(to);
  try {
    await copyFile(from, tmp, constants.COPYFILE_EXCL);
    await chmod(tmp, mode & 0o7777);
    await rename(tmp, to);
  } catch (err) {
    await removeIfPresent(tmp, { recursive: false });
    throw err;
  }
}

async function copyFileTarget(ctx: CopyCtx, src: Target, dst: Target): Promise<void> {
  const s = await stat(src.resolved, { bigint: true });
  // A symlink to a directory cannot be copied as a file (api.md §3.9); special files would block.
  if (s.isDirectory()) throw new AppError('bad_request', 'cannot copy a symlink to a directory');
  if (!s.isFile()) throw new AppError('bad_request', 'cannot copy a special file');
  await makeParent(dst.resolved, ctx.modes.dirMode);
  await copyOneFile(src.resolved, dst.resolved, Number(s.mode));
}

async function copyDirectory(ctx: CopyCtx, { src, dst }: Pair, own: BigIntStats): Promise<void> {
  // Directories are created with the source's mode; an existing destination is merged into.
  await mkdir(dst.resolved, { recursive: true, mode: Number(own.mode) & 0o7777 });
  const names = (await readdir(src.real)).sort();
  for (const name of names) {
    // Temporary files and the server's own files are never part of a copy (api.md §14).
    if (isTempName(name) || ctx.gate.hides(join(src.real, name))) continue;
    try {
      const child = await ctx.gate.resolve(joinPath(src.path, name), 'read', { unchecked: true });
      const target = await ctx.gate.resolve(joinPath(dst.path, name), 'write', { unchecked: true });
      await copyEntry(ctx, child, target);
    } catch (err) {
      ctx.failures.add(err);
    }
  }
}

async function copyEntry(ctx: CopyCtx, src: Target, dst: Target): Promise<void> {
  if (src.real === dst.real) throw new AppError('bad_request', 'cannot copy onto itself');
  const own = await lstat(src.real, { bigint: true });
  if (own.isDirectory()) return copyDirectory(ctx, { src, dst }, own);
  return copyFileTarget(ctx, src, dst);
}

/**
 * Copies a gated file or directory tree (api.md §3.9 `copy`): files keep their mode, directories
 * are created with the source's mode and merged into, in-scope symlinks to files are copied as
 * files, escaping symlinks are never read (403). A failing child does not stop the others; the
 * copy then fails with the first error (403 first).
 */
export async function copyTree(gate: PathGate, { src, dst }: Pair, modes: CreateModes): Promise<void> {
  const failures = new Failures();
  try {
    await copyEntry({ gate, modes, failures }, src, dst);
  } catch (err) {
    failures.add(err);
  }
  // What was copied is indexed even when some children failed.
  await pathChanged(dst.real);
  failures.throwAny();
}

/** Test seam for moves: the rename call (default fs.rename). */
export interface MoveOptions extends CreateModes {
  rename?: (from: string, to: string) => Promise<void>;
}

/**
 * Moves a gated path (api.md §3.9 `rename`): an OS rename of the entry itself; across devices,
 * or onto a non-empty directory, a copy then removal of the source. When that copy fails, what
 * it created at the destination is removed and the source stays whole.
 */
export async function moveTree(gate: PathGate, { src, dst }: Pair, opts: MoveOptions): Promise<void> {
  if (gate.guards(src.real)) throw new AppError('forbidden');
  const doRename = opts.rename ?? rename;
  try {
    await makeParent(dst.real, opts.dirMode);
    await doRename(src.real, dst.real);
    await syncDir(dirname(dst.real));
    await treeChanged({ kind: 'moved', from: src.real, to: dst.real });
    return;
  } catch (err) {
    const code = errnoCode(err);
    if (code === 'ENOTDIR' || code === 'EISDIR') throw new AppError('exists');
    if (code !== 'EXDEV' && code !== 'ENOTEMPTY' && code !== 'EEXIST') throw fsError(err);
  }
  const existed = (await lstatOrNull(dst.real, { lenient: true })) !== null;
  try {
    await copyTree(gate, { src, dst }, opts);
  } catch (err) {
    if (!existed) await removeIfPresent(dst.real, { recursive: true });
    throw err;
  }
  await rm(src.real, { recursive: true, force: true });
  await pathChanged(src.real);
}
