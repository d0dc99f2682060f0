import type { BigIntStats } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { isTempName } from './hidden';
import { joinPath } from './paths';
import type { PathGate, Target } from './scope';
import { lstatOrNull } from './write';

/** One entry met by `walk`, described by lstat (symlinks are never descended into). */
export interface WalkEntry {
  /** Full user path ('/a/b.txt'). */
  path: string;
  /** On-disk path to operate on. */
  real: string;
  /** lstat of the entry. */
  stat: BigIntStats;
  /** Directory depth below the walk's root (children of the root are 1). */
  depth: number;
}

export interface WalkOptions {
  /** Stop walking as soon as this aborts (the client went away). */
  signal?: AbortSignal;
  /**
   * Search semantics (api.md §3.14): a directory the rules deny is not yielded but its children
   * are still visited and checked one by one. Default (recursive listing, archives): the whole
   * subtree of a denied directory is skipped.
   */
  enterDenied?: boolean;
  /** Yield every in-scope entry without the rule check (the caller checks, e.g. §6.3). */
  unchecked?: boolean;
}

async function sortedNames(real: string): Promise<string[]> {
  try {
    const names = await readdir(real);
    return names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  } catch {
    return [];
  }
}

async function visible(gate: PathGate, real: string, s: BigIntStats): Promise<boolean> {
  if (gate.hides(real)) return false;
  if (!s.isSymbolicLink()) return true;
  try {
    return await gate.confines(real);
  } catch {
    return false;
  }
}

interface Dir {
  path: string;
  real: string;
  depth: number;
}

/**
 * Walks a gated directory depth-first in bytewise name order, the root itself excluded
 * (api.md §3.5, §3.14): entries are lstat'ed, symlinks are yielded but never descended into,
 * escaping symlinks, unreadable entries, temporary names and the server's own files are
 * skipped silently, and entries failing the rule/dotfile check are skipped. Memory stays
 * proportional to the depth times the widest directory, never to the tree.
 */
export async function* walk(gate: PathGate, root: Target, opts: WalkOptions = {}): AsyncGenerator<WalkEntry> {
  yield* walkDir(gate, { path: root.path, real: root.real, depth: 0 }, opts);
}

async function* walkDir(gate: PathGate, dir: Dir, opts: WalkOptions): AsyncGenerator<WalkEntry> {
  for (const name of await sortedNames(dir.real)) {
    if (opts.signal?.aborted) return;
    if (isTempName(name)) continue;
    const entry: Dir = { path: joinPath(dir.path, name), real: join(dir.real, name), depth: dir.depth + 1 };
    const s = await lstatOrNull(entry.real, { lenient: true });
    if (!s || !(await visible(gate, entry.real, s))) continue;
    const allowed = opts.unchecked === true || gate.allows(entry.path);
    if (allowed) yield { ...entry, stat: s };
    if (s.isDirectory() && (allowed || opts.enterDenied === true)) yield* walkDir(gate, entry, opts);
  }
}
