import { realpath } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { isWithin } from '../lib/within';
import { joinPath } from './paths';

/**
 * The recognisable prefix of every temporary file filemgr writes among user files (atomic saves,
 * tus uploads). Names carrying it are hidden from listings, search and archives and refused as
 * targets (api.md §14).
 */
export const TEMP_PREFIX = '.filemgr-tmp-';

/** The folder in the served root that holds every user's recycle bin (beyond.md §3). */
export const TRASH_DIR = '.filemgr-trash';

/** Appended to the database path: the file the first run writes the admin's password to. */
export const ADMIN_PASSWORD_SUFFIX = '.admin-password';

/** The server's own files, which are invisible and untouchable through every API (api.md §14). */
export interface HiddenFiles {
  /** True when the real (absolute) path is one of the server's own files or lies below its cache. */
  hides(realPath: string): boolean;
  /** True when one of the server's own files lies at or below the real path (refuse deleting it). */
  within(realPath: string): boolean;
}

/** True when a single file name is a filemgr temporary file. */
export function isTempName(name: string): boolean {
  return name.startsWith(TEMP_PREFIX);
}

/** Where the server keeps its state, as configured. */
export interface ServerFiles {
  /** The JSON database file ('' when in memory). */
  databasePath: string;
  /** The preview cache directory ('' when none). */
  cacheDir: string;
  /** The recycle bin folder (`<root>/.filemgr-trash`); hidden like the cache (beyond.md §3). */
  trashDir?: string;
}

async function realOrSelf(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    return path;
  }
}

/**
 * Builds the hidden-file test from the configuration. Paths are compared both as given and with
 * symlinks resolved, so a link to the database cannot reveal it either. The database's lock file
 * and the temporary siblings of its atomic writes (`.<name>.tmp-*`) are hidden with it.
 */
export async function hiddenFilesOf(files: ServerFiles): Promise<HiddenFiles> {
  const dirs: string[] = [];
  const exact = new Set<string>();
  /** A database temp file's real path starts with `start` and has no further '/'. */
  const dbTemps: { start: string }[] = [];
  if (files.cacheDir) {
    const abs = resolve(files.cacheDir);
    dirs.push(abs, await realOrSelf(abs));
  }
  if (files.trashDir) {
    // It may not exist yet: its parent (the root) is resolved instead.
    const abs = resolve(files.trashDir);
    dirs.push(abs, join(await realOrSelf(dirname(abs)), basename(abs)));
  }
  if (files.databasePath) {
    const abs = resolve(files.databasePath);
    const real = join(await realOrSelf(dirname(abs)), basename(abs));
    for (const p of [abs, real]) {
      exact.add(p);
      exact.add(`${p}.lock`);
      // The first admin password written beside the database (cli/first-password.ts).
      exact.add(`${p}${ADMIN_PASSWORD_SUFFIX}`);
      dbTemps.push({ start: joinPath(dirname(p), `.${basename(p)}.tmp-`) });
    }
  }
  const protectedPaths = [...dirs, ...exact];
  return {
    within: (realPath) => protectedPaths.some((p) => isWithin(realPath, p)),
    hides(realPath) {
      if (exact.has(realPath)) return true;
      if (dirs.some((d) => isWithin(d, realPath))) return true;
      // dirname(realPath) === t.dir && basename(realPath).startsWith(t.prefix), without the two
      // allocations per call: a listing asks this of every entry.
      return dbTemps.some((t) => realPath.startsWith(t.start) && !realPath.includes('/', t.start.length));
    },
  };
}

/** Hides nothing but temporary names (tests and tools without server files). */
export const noHiddenFiles: HiddenFiles = { hides: () => false, within: () => false };
