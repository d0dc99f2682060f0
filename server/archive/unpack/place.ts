import { readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError } from '../../errors';
import { lstatOrNull } from '../../fs/write';
import { syncDir } from '../../lib/sync-dir';
import type { EntryKind } from './staging';
import { pathChanged } from '../../fs/changes';

/**
 * Refuses (409) when an entry meets an existing name in the destination: a file or link over
 * anything unless `override` (and then never over a folder), a folder over anything but a
 * folder (existing folders merge; a symlink in the destination is never entered).
 */
export async function checkConflicts(dest: string, kinds: ReadonlyMap<string, EntryKind>, override: boolean): Promise<void> {
  const found = await lstatOrNull(dest);
  if (found === null) return;
  if (!found.isDirectory()) throw new AppError('exists');
  const sorted = [...kinds].sort(([a], [b]) => (a < b ? -1 : 1));
  const missing = new Set<string>();
  for (const [rel, kind] of sorted) {
    // Below a path the destination lacks, nothing can be in the way (parents sort first).
    const slash = rel.lastIndexOf('/');
    if (slash !== -1 && missing.has(rel.slice(0, slash))) {
      missing.add(rel);
      continue;
    }
    const there = await lstatOrNull(join(dest, rel));
    if (there === null) {
      missing.add(rel);
      continue;
    }
    const fits = kind === 'dir' ? there.isDirectory() : override && !there.isDirectory();
    if (!fits) throw new AppError('exists');
  }
}

/** Moves the staged tree's contents into an existing folder, merging folders, replacing files. */
async function merge(from: string, to: string): Promise<void> {
  for (const entry of await readdir(from, { withFileTypes: true })) {
    const src = join(from, entry.name);
    const dst = join(to, entry.name);
    const there = await lstatOrNull(dst);
    if (entry.isDirectory() && there?.isDirectory() === true) await merge(src, dst);
    else await rename(src, dst);
  }
  await syncDir(to);
}

/**
 * Puts the staged tree in place: one rename when the destination did not exist (the staging
 * folder is its sibling), else a merge into it (the staging folder lies inside it).
 */
export async function placeStaged(staging: string, dest: string, destExisted: boolean): Promise<void> {
  if (!destExisted) {
    await rename(staging, dest);
    await syncDir(join(dest, '..'));
  } else {
    await merge(staging, dest);
    await rm(staging, { recursive: true, force: true });
  }
  await pathChanged(dest);
}
