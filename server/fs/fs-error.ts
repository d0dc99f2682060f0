import { AppError, type ErrorCode, isAppError } from '../errors';

/**
 * Node `fs` error codes -> the error catalogue (api.md §1.5 with the §14 decision that errors the
 * request caused are never 500). Codes absent from the table are server faults and stay 500.
 */
const codeTable: Readonly<Record<string, { code: ErrorCode; message?: string }>> = {
  EACCES: { code: 'forbidden' },
  EPERM: { code: 'forbidden' },
  EROFS: { code: 'forbidden' },
  ELOOP: { code: 'forbidden' },
  ENOENT: { code: 'not_found' },
  EEXIST: { code: 'exists' },
  ENOTEMPTY: { code: 'exists' },
  // A mount point or a running program's file: the request conflicts with the state of the disk.
  EBUSY: { code: 'exists' },
  ETXTBSY: { code: 'exists' },
  ENOTDIR: { code: 'not_found' },
  EISDIR: { code: 'bad_request', message: 'path is a directory' },
  ENAMETOOLONG: { code: 'bad_request', message: 'file name too long' },
  EINVAL: { code: 'bad_request', message: 'invalid path' },
  EXDEV: { code: 'bad_request', message: 'cross-device link' },
  ENOSPC: { code: 'insufficient_storage' },
  EDQUOT: { code: 'insufficient_storage' },
  EFBIG: { code: 'too_large' },
};

/** The Node error code of `err` ('ENOENT', ...), or undefined. */
export function errnoCode(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null || !('code' in err)) return undefined;
  const code = err.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * THE one translation of filesystem failures: an AppError passes through, a known Node fs error
 * code becomes its AppError, anything else is returned unchanged (a 500 for the error handler).
 */
export function fsError(err: unknown): Error {
  if (isAppError(err)) return err;
  const code = errnoCode(err);
  const entry = code === undefined ? undefined : codeTable[code];
  if (!entry) return err instanceof Error ? err : new Error(String(err));
  return entry.message === undefined ? new AppError(entry.code) : new AppError(entry.code, entry.message);
}

/**
 * `fsError` for a `mkdir -p` of a path's parent: Node answers EEXIST when the parent or an
 * ancestor is a file, which for the path below it is ENOTDIR (the path cannot exist), not a
 * conflict with an existing entry.
 */
export function parentError(err: unknown): Error {
  return fsError(errnoCode(err) === 'EEXIST' ? { code: 'ENOTDIR' } : err);
}

/** Runs `fn`, translating whatever it throws through `fsError`. */
export async function translated<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw fsError(err);
  }
}
