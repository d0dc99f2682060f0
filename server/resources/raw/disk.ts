import { constants, type BigIntStats, type Stats } from 'node:fs';
import { lstat, open, realpath, stat, type FileHandle } from 'node:fs/promises';
import { translated } from '../../fs/fs-error';
import type { Target } from '../../fs/scope';

/**
 * The raw service's own disk access (api.md §3.11), on paths that already passed the gate.
 * The rest of this folder reaches the disk through here and archive-entries.ts.
 */

/** An opened regular file and what its handle's fstat says. */
export interface OpenedFile {
  fh: FileHandle;
  stats: BigIntStats;
}

/**
 * Opens a gated file for reading, or undefined when it is not a regular file (a named pipe or
 * another special file, never read). O_NOFOLLOW: a name that was not a link when stat'ed must
 * not have become one (a link swapped in could point out of the scope); O_NONBLOCK: a pipe
 * swapped in cannot hang the open.
 */
export async function openRegular(target: Target, isSymlink: boolean): Promise<OpenedFile | undefined> {
  const flags = constants.O_RDONLY | constants.O_NONBLOCK | (isSymlink ? 0 : constants.O_NOFOLLOW);
  const fh = await translated(() => open(target.real, flags));
  try {
    const stats = await fh.stat({ bigint: true });
    if (stats.isFile()) return { fh, stats };
  } catch (err) {
    await fh.close();
    throw err;
  }
  await fh.close();
  return undefined;
}

/** What an archive needs of a selected path. */
export interface SelectedOnDisk {
  /** A directory's canonical real path (its members' paths are then canonical too). */
  real: string;
  /** The stat of what the path names, links followed (the gate confined them). */
  stats: Stats;
  /** Whether the path itself is a symlink (so opening it may follow one). */
  linked: boolean;
}

/** Stats a gated selection for an archive; a directory is resolved to its canonical path. */
export async function selectedOnDisk(target: Target): Promise<SelectedOnDisk> {
  const own = await translated(() => lstat(target.real));
  const stats = own.isSymbolicLink() ? await translated(() => stat(target.real)) : own;
  const real = stats.isDirectory() ? await translated(() => realpath(target.real)) : target.real;
  return { real, stats, linked: own.isSymbolicLink() };
}
