import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
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

/** Backups are `<name>-<timestamp><ext>` beside the log; the timestamps sort by age. */
function backups(path: string): string[] {
  const ext = extname(path);
  const stem = basename(path, ext);
  return readdirSync(dirname(path))
    .filter((f) => f.startsWith(`${stem}-`) && f.endsWith(ext) && f !== basename(path))
    .sort()
    .map((f) => join(dirname(path), f));
}

function backupName(path: string): string {
  // Two rotations within one millisecond must not overwrite each other's backup.
  for (let t = Date.now(); ; t++) {
    const name = join(dirname(path), `${basename(path, extname(path))}-${stampOf(new Date(t))}${extname(path)}`);
    if (!existsSync(name)) return name;
  }
}

function prune(path: string, limits: RotationLimits, now: number): void {
  const all = backups(path);
  const tooMany = all.slice(0, Math.max(0, all.length - limits.maxBackups));
  const oldest = now - limits.maxAgeDays * 86_400_000;
  for (const f of all) {
    if (tooMany.includes(f) || statSync(f).mtimeMs < oldest) rmSync(f, { force: true });
  }
}

/**
 * A log file that appends synchronously (a crash loses no line) and rotates: past `maxBytes`
 * the file is renamed with a timestamp and a new one started; old backups beyond the count or
 * age are deleted. Opening fails at once when the file cannot be written.
 */
export function openLogFile(path: string, limits: RotationLimits = DEFAULT_ROTATION): LogFile {
  mkdirSync(dirname(path), { recursive: true, mode: 0o750 });
  let fd = openSync(path, 'a', 0o640);
  let size = fstatSync(fd).size;
  const rotate = (): void => {
    closeSync(fd);
    renameSync(path, backupName(path));
    fd = openSync(path, 'a', 0o640);
    size = 0;
    prune(path, limits, Date.now());
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
