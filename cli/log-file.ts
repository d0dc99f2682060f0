import { closeSync, fstatSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';

export interface RotationLimits {
  maxBytes: number;
  maxBackups: number;
  maxAgeDays: number;
}

/** filebrowser's lumberjack settings (api.md §10.1): 100 MB, 10 backups, 14 days. */
export const DEFAULT_ROTATION: RotationLimits = { maxBytes: 100 * 1024 * 1024, maxBackups: 10, maxAgeDays: 14 };

export interface LogFile {
  write(chunk: string): boolean;
  close(): void;
}

function stampOf(date: Date): string {
  return date.toISOString().replace(/:/g, '-').replace('Z', '');
}

interface Backup {
  file: string;
  stamp: string;
  counter: number;
}

/**
 * Backups are `<name>-<timestamp><ext>` beside the log, or `<name>-<timestamp>-<n><ext>` for the
 * n-th further rotation within the same millisecond; sorted oldest first by (timestamp, n).
 */
function backups(path: string): Backup[] {
  const ext = extname(path);
  const stem = basename(path, ext);
  const found: Backup[] = [];
  for (const f of readdirSync(dirname(path))) {
    if (!f.startsWith(`${stem}-`) || !f.endsWith(ext) || f === basename(path)) continue;
    const middle = f.slice(stem.length + 1, f.length - ext.length);
    const m = /^(.*?)(?:-(\d+))?$/.exec(middle);
    found.push({ file: join(dirname(path), f), stamp: m?.[1] ?? middle, counter: Number(m?.[2] ?? 0) });
  }
  return found.sort((a, b) => (a.stamp === b.stamp ? a.counter - b.counter : a.stamp < b.stamp ? -1 : 1));
}

/**
 * The backup name for a rotation at `now`. Two rotations within one millisecond must neither
 * overwrite each other's backup nor sort out of order, so a taken stamp gets a counter one past
 * the highest already used for it (never a free lower one, which pruning may have left).
 */
function backupName(path: string, now: number): string {
  const stamp = stampOf(new Date(now));
  const same = backups(path).filter((b) => b.stamp === stamp);
  const stem = join(dirname(path), `${basename(path, extname(path))}-${stamp}`);
  if (same.length === 0) return `${stem}${extname(path)}`;
  return `${stem}-${Math.max(...same.map((b) => b.counter)) + 1}${extname(path)}`;
}

function prune(path: string, limits: RotationLimits, now: number): void {
  const all = backups(path).map((b) => b.file);
  const tooMany = all.slice(0, Math.max(0, all.length - limits.maxBackups));
  const oldest = now - limits.maxAgeDays * 86_400_000;
  for (const f of all) {
    if (tooMany.includes(f) || statSync(f).mtimeMs < oldest) rmSync(f, { force: true });
  }
}

/**
 * A log file that appends synchronously (a crash loses no line) and rotates: past `maxBytes`
 * the file is renamed with a timestamp and a new one started; old backups beyond the count or
 * age are deleted. Opening fails at once when the file cannot be written. `clock` is for tests.
 */
export function openLogFile(
  path: string,
  limits: RotationLimits = DEFAULT_ROTATION,
  clock: () => number = Date.now,
): LogFile {
  mkdirSync(dirname(path), { recursive: true, mode: 0o750 });
  let fd = openSync(path, 'a', 0o640);
  let size = fstatSync(fd).size;
  const rotate = (): void => {
    closeSync(fd);
    const now = clock();
    renameSync(path, backupName(path, now));
    fd = openSync(path, 'a', 0o640);
    size = 0;
    prune(path, limits, now);
  };
  return {
    write(chunk) {
      const bytes = Buffer.byteLength(chunk);
      if (size > 0 && size + bytes > limits.maxBytes) rotate();
      writeSync(fd, chunk);
      size += bytes;
      return true;
    },
    close() {
      closeSync(fd);
    },
  };
}
