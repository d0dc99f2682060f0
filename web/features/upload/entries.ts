import { joinPath } from '../../paths';
import { freeName } from './free-name';

/**
 * One thing to upload, by its path relative to the destination folder (`photos/2024/a.jpg`): a
 * file, or a folder (`file` null) that is created even when empty, so a dropped tree keeps its shape.
 */
export interface Entry {
  relPath: string;
  file: File | null;
}

/** A job's description before it enters the queue. */
export interface NewJob {
  name: string;
  /** The target's user path (a folder's ends with `/`). */
  path: string;
  size: number;
  file: File | null;
  overwrite: boolean;
}

function topName(entry: Entry): { name: string; isDir: boolean } {
  const cut = entry.relPath.indexOf('/');
  return cut < 0 ? { name: entry.relPath, isDir: entry.file === null } : { name: entry.relPath.slice(0, cut), isDir: true };
}

/** The names at the top of the batch that already exist in the destination (`taken`). */
export function clashesOf(entries: readonly Entry[], taken: ReadonlySet<string>): Set<string> {
  return new Set(entries.map((e) => topName(e).name).filter((name) => taken.has(name)));
}

/**
 * The entries with every clashing top-level name replaced by a free one (the "Continue" answer):
 * free among the destination's names and the batch's own, so two renamed items never meet.
 */
export function renameClashing(entries: readonly Entry[], clashes: ReadonlySet<string>, taken: ReadonlySet<string>): Entry[] {
  const used = new Set([...taken, ...entries.map((e) => topName(e).name)]);
  const renamed = new Map<string, string>();
  return entries.map((entry) => {
    const top = topName(entry);
    if (!clashes.has(top.name)) return entry;
    let name = renamed.get(top.name);
    if (name === undefined) {
      name = freeName(top.name, used, top.isDir);
      used.add(name);
      renamed.set(top.name, name);
    }
    return { ...entry, relPath: `${name}${entry.relPath.slice(top.name.length)}` };
  });
}

/** The queue's jobs for the entries uploaded into `dest`. */
export function jobsOf(entries: readonly Entry[], dest: string, overwrite: boolean): NewJob[] {
  return entries.map((entry) => {
    const name = entry.relPath.split('/').filter(Boolean).at(-1) ?? entry.relPath;
    const path = joinPath(dest, entry.relPath.replace(/\/+$/, ''), entry.file === null);
    return { name, path, size: entry.file?.size ?? 0, file: entry.file, overwrite };
  });
}

/** The files picked with an input; a folder picker gives each its path inside the folder. */
export function entriesOfFiles(files: Iterable<File>): Entry[] {
  return [...files].map((file) => ({ relPath: file.webkitRelativePath || file.name, file }));
}
