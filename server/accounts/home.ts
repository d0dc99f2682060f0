import { mkdir } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { AppError } from '../errors';

/**
 * The directory name derived from a username (api.md §8.2): trimmed, every `..` removed, any
 * character outside `0-9 A-Z a-z @ _ - .` replaced by `-`, runs of `-` collapsed.
 */
export function cleanUsername(username: string): string {
  const cleaned = username.trim().split('..').join('').replace(/[^0-9A-Za-z@_.-]/g, '-').replace(/-+/g, '-');
  if (cleaned === '' || cleaned === '-' || cleaned === '.') {
    throw new AppError('bad_request', `username ${JSON.stringify(username)} cannot name a home directory`);
  }
  return cleaned;
}

/** A scope as stored: absolute and lexically clean (`.` and `""` become `/`, `..` cannot climb). */
export function normalizeScope(scope: string): string {
  const cleaned = posix.normalize(`/${scope.trim()}`);
  return cleaned.length > 1 && cleaned.endsWith('/') ? cleaned.slice(0, -1) : cleaned;
}

/** The derived home `<userHomeBasePath>/<cleaned username>`. */
export function derivedHome(basePath: string, username: string): string {
  return normalizeScope(`${basePath || '/users'}/${cleanUsername(username)}`);
}

/**
 * The scope a user gets: the derived home when `derive` holds (createUserDir with no explicit
 * scope), otherwise the given scope normalised.
 */
export function resolveScope(opts: { scope: string; username: string; derive: boolean; basePath: string }): { scope: string; derived: boolean } {
  if (opts.derive) return { scope: derivedHome(opts.basePath, opts.username), derived: true };
  return { scope: normalizeScope(opts.scope), derived: false };
}

/** Creates the scope directory below the server root (mkdir -p, 0777 minus umask). */
export async function ensureHome(root: string, scope: string): Promise<void> {
  await mkdir(join(root, normalizeScope(scope)), { recursive: true, mode: 0o777 });
}
