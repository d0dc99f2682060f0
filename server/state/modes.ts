import type { Settings } from './schema';

/** Upstream's mode of the files the server creates (api.md §7): the default, and what a stored 0 means. */
export const DEFAULT_FILE_MODE = 0o640;
/** Upstream's mode of the directories the server creates (api.md §7). */
export const DEFAULT_DIR_MODE = 0o750;

/** settings.fileMode / dirMode, with upstream's defaults for 0 (api.md §7). */
export function createModes(s: Pick<Settings, 'fileMode' | 'dirMode'>): { fileMode: number; dirMode: number } {
  return { fileMode: s.fileMode || DEFAULT_FILE_MODE, dirMode: s.dirMode || DEFAULT_DIR_MODE };
}
