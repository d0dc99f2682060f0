import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { isTempName } from './hidden';
import { joinPath } from './paths';
import type { PathGate } from './scope';

const SUBTITLE_EXT = /\.(vtt|srt|ass|ssa)$/i;
const SUBTITLE_DIR = /^(subs|subtitles)$/i;

/** Finds the subtitles of the videos of one directory (api.md §5.7). */
export interface SubtitleFinder {
  /** Full user paths of the subtitles of the video `name` in that directory, in directory order. */
  forVideo(name: string): Promise<string[]>;
}

interface Dir {
  path: string;
  real: string;
}

/** What the finder needs of a directory entry (a Dirent, or what a listing already stat'ed). */
export interface EntryKind {
  name: string;
  isFile(): boolean;
  isDirectory(): boolean;
}

async function entriesOf(dir: Dir): Promise<EntryKind[]> {
  try {
    const list = await readdir(dir.real, { withFileTypes: true });
    return list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch {
    return [];
  }
}

interface SubsDir {
  /** Subtitle files directly inside `subs/`. */
  files: string[];
  /** Its sub-directories: name and the subtitle files inside. */
  children: { name: string; files: string[] }[];
}

function subtitleFiles(gate: PathGate, dir: Dir, entries: EntryKind[]): string[] {
  return entries
    .filter((e) => e.isFile() && SUBTITLE_EXT.test(e.name) && !isTempName(e.name))
    .map((e) => joinPath(dir.path, e.name))
    .filter((p) => gate.allows(p));
}

async function readSubsDir(gate: PathGate, dir: Dir): Promise<SubsDir> {
  const entries = await entriesOf(dir);
  const children: SubsDir['children'] = [];
  for (const e of entries.filter((x) => x.isDirectory())) {
    const child = { path: joinPath(dir.path, e.name), real: join(dir.real, e.name) };
    if (!gate.allows(child.path)) continue;
    children.push({ name: e.name, files: subtitleFiles(gate, child, await entriesOf(child)) });
  }
  return { files: subtitleFiles(gate, dir, entries), children };
}

/** True for the entries a finder looks at: subtitle files and `subs`/`subtitles` folders. */
export function subtitleRelevant(entry: EntryKind): boolean {
  return (entry.isFile() && SUBTITLE_EXT.test(entry.name)) || (entry.isDirectory() && SUBTITLE_DIR.test(entry.name));
}

function videoBase(name: string): string {
  const i = name.lastIndexOf('.');
  return i < 0 ? name : name.slice(0, i);
}

/**
 * A finder over `dir`, whose entries are read once (or taken from `known`, sorted by name, when
 * a listing already has them; it may hold only the entries subtitleRelevant accepts) and whose `subs`/`subtitles` folders are read only when a video
 * asks, so listings without videos cost nothing extra.
 */
export function subtitleFinder(gate: PathGate, dir: Dir, known?: EntryKind[]): SubtitleFinder {
  let loaded: Promise<{ entries: EntryKind[]; subs: SubsDir[] }> | undefined;
  const load = async (): Promise<{ entries: EntryKind[]; subs: SubsDir[] }> => {
    const all = known ?? (await entriesOf(dir));
    // Only subtitle files are kept: a folder of many videos must not cost videos x entries.
    const entries = all.filter((e) => e.isFile() && SUBTITLE_EXT.test(e.name));
    const subs: SubsDir[] = [];
    for (const e of all.filter((x) => x.isDirectory() && SUBTITLE_DIR.test(x.name))) {
      const sub = { path: joinPath(dir.path, e.name), real: join(dir.real, e.name) };
      if (gate.allows(sub.path)) subs.push(await readSubsDir(gate, sub));
    }
    return { entries, subs };
  };
  return {
    async forVideo(name) {
      loaded ??= load();
      const { entries, subs } = await loaded;
      const base = videoBase(name);
      const beside = subtitleFiles(gate, dir, entries.filter((e) => e.name.startsWith(base)));
      const inSubs = subs.flatMap((s) => [
        ...s.files,
        ...s.children.filter((c) => c.name.startsWith(base)).flatMap((c) => c.files),
      ]);
      return [...beside, ...inSubs];
    },
  };
}
