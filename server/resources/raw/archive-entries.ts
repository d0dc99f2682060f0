import { lstatSync, statSync, type Dirent, type Stats } from 'node:fs';
import { readdir, realpath } from 'node:fs/promises';
import type { ArchiveEntry } from '../../archive/archive';
import { SmallFileReader } from '../../archive/file-reader';
import type { Preparation } from '../../archive/worker-protocol';
import { joinPath } from '../../fs/paths';
import type { PathGate } from '../../fs/scope';
import { EntryBatches } from './entry-batches';
import { openLarge } from './large-file';

/**
 * The members of a download archive (api.md §3.11): every selected path and, for directories,
 * their contents, named relative to the common directory. Each member passes the gate's name
 * check (rules, dotfiles, temporary names; a denied directory is skipped whole), the server's
 * own files are left out, and a symlink is archived only when it resolves inside the scope
 * (never followed out of it; a link back to an ancestor is not followed twice).
 *
 * Speed: the walk takes each entry's type from readdir and leaves opening, fstat and reading
 * files to the reader (entry-batches.ts), which reads batches of small files with synchronous
 * calls, in a worker for plain tar. Promise hops and thread-pool round trips per file made
 * archiving thousands of small files several times slower than GNU tar. After each batch the
 * event loop gets its turn back.
 */

/** A selected path that passed the gate and exists, with what its stat said. */
export interface ArchiveRoot {
  /** Clean user path. */
  path: string;
  /** On-disk path, symlinks of the last component resolved for directories. */
  real: string;
  stats: Stats;
  /** The path itself is a symlink the gate confined: opening it may follow the link. */
  linked: boolean;
}

export interface ArchiveWalk {
  gate: PathGate;
  /** The common directory (user path); names are relative to it. */
  common: string;
  signal: AbortSignal;
  /** Reports a member left out because it vanished or could not be read. */
  onSkip: (path: string, err: Error) => void;
  /**
   * The archive worker's code when batches of files are to be read there (plain tar, where
   * reading is the work); undefined to read them on the main thread.
   */
  readerSource: (() => Promise<string>) | undefined;
  /** What small files are turned into where they are read: tar records, zip bodies, or nothing. */
  prepare?: Preparation;
}

/** A directory of the walk, or anything whose type is known from a stat. */
interface Member {
  path: string;
  real: string;
  stats: Stats;
  /** Reached through a symlink that the gate confined: opening may follow it. */
  linked: boolean;
}

/** The state of one walk: the directories being walked (loop guard) and the batches being filled. */
interface WalkState {
  walk: ArchiveWalk;
  ancestors: Set<string>;
  batches: EntryBatches;
}

function entryName(path: string, common: string): string {
  return common === '' || common === '/' ? path.slice(1) : path.slice(common.length + 1);
}

function directoryEntry(member: Member, common: string): ArchiveEntry {
  const file = { path: member.real, follow: member.linked };
  return { name: entryName(member.path, common), isDir: true, size: 0, mode: member.stats.mode, mtime: member.stats.mtime, open: () => openLarge(file) };
}

function addFile(state: WalkState, path: string, file: { real: string; linked: boolean }): void {
  state.batches.addFile(entryName(path, state.walk.common), path, { path: file.real, follow: file.linked });
}

const inodeKey = (stats: Stats): string => `${stats.dev}:${stats.ino}`;

/** A symlinked member, when its target stays inside the scope: described by the target. */
async function followLink(walk: ArchiveWalk, path: string, real: string): Promise<Member | undefined> {
  try {
    const resolved = await realpath(real);
    if (!(await walk.gate.confines(resolved))) return undefined;
    return { path, real: resolved, stats: statSync(resolved), linked: true };
  } catch {
    // A dangling link has nothing to archive.
    return undefined;
  }
}

/** A member whose type readdir did not tell (some filesystems) or that is a directory: lstat'ed. */
function lstatMember(walk: ArchiveWalk, path: string, real: string): Member | undefined {
  try {
    return { path, real, stats: lstatSync(real), linked: false };
  } catch (err) {
    walk.onSkip(path, err as Error);
    return undefined;
  }
}

/** Adds what a directory's entry other than a regular file stands for: a folder walked in place, a confined link's target. */
async function* member(state: WalkState, at: { path: string; real: string }, dirent: Dirent): AsyncGenerator<ArchiveEntry[]> {
  const { walk } = state;
  const { path, real } = at;
  // FIFOs, sockets and devices have nothing to archive; a type readdir did not tell is lstat'ed.
  if (dirent.isFIFO() || dirent.isSocket() || dirent.isBlockDevice() || dirent.isCharacterDevice()) return;
  const stated = dirent.isSymbolicLink() ? await followLink(walk, path, real) : lstatMember(walk, path, real);
  const found = stated?.stats.isSymbolicLink() ? await followLink(walk, path, real) : stated;
  if (found?.stats.isDirectory()) yield* directory(state, found);
  else if (found?.stats.isFile()) addFile(state, path, found);
}

async function sortedEntries(walk: ArchiveWalk, dir: Member): Promise<Dirent[]> {
  try {
    return (await readdir(dir.real, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch (err) {
    walk.onSkip(dir.path, err as Error);
    return [];
  }
}

async function* directory(state: WalkState, dir: Member): AsyncGenerator<ArchiveEntry[]> {
  const { walk } = state;
  const key = inodeKey(dir.stats);
  if (state.ancestors.has(key)) return;
  // The common directory itself is not an entry: a single selected folder yields its contents.
  if (dir.path !== walk.common) state.batches.add(directoryEntry(dir, walk.common));
  state.ancestors.add(key);
  for (const dirent of await sortedEntries(walk, dir)) {
    if (walk.signal.aborted) return;
    const at = { path: joinPath(dir.path, dirent.name), real: `${dir.real}/${dirent.name}` };
    if (!walk.gate.allows(at.path) || walk.gate.hides(at.real)) continue;
    // Files, nearly every entry, are added here: an async generator per entry was most of the
    // garbage (and so of the collections) of archiving thousands of small files.
    if (dirent.isFile()) addFile(state, at.path, { real: at.real, linked: false });
    else yield* member(state, at, dirent);
    if (!state.batches.full) continue;
    yield* state.batches.due(false);
    // Let other requests run between batches of synchronous calls.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  state.ancestors.delete(key);
}

/** Streams the archive members of the selected roots, in order and in batches, until `walk.signal` aborts. */
export async function* archiveEntries(roots: readonly ArchiveRoot[], walk: ArchiveWalk): AsyncGenerator<ArchiveEntry[]> {
  const reader = new SmallFileReader(walk.readerSource, walk.prepare);
  const state: WalkState = { walk, ancestors: new Set(), batches: new EntryBatches(reader, walk.onSkip) };
  try {
    for (const root of roots) {
      if (walk.signal.aborted) return;
      if (root.stats.isDirectory()) yield* directory(state, root);
      else if (root.stats.isFile()) addFile(state, root.path, root);
    }
    if (!walk.signal.aborted) yield* state.batches.due(true);
  } finally {
    reader.close();
  }
}
