import { AppError } from '../../errors';

/**
 * The one file name a visitor of an upload link names per request (beyond.md §2), and the names
 * it is stored under when taken: `report.pdf`, `report (1).pdf`, `report (2).pdf` ...
 */

/** The longest name most filesystems store (bytes). */
const MAX_NAME_BYTES = 255;

/** Control characters (C0, DEL) have no place in a file name someone sends. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/u;

/**
 * Checks a requested name: one component, no `..`, no leading dot (hidden and server files), no
 * control characters, at most 255 bytes; 400 with the reason otherwise. Rules are the gate's.
 */
export function checkUploadName(name: string): string {
  if (name === '') throw new AppError('bad_request', 'a file name is needed: /api/public/upload/{hash}/{name}');
  if (name.includes('/') || name.includes('\\')) throw new AppError('bad_request', 'one file name, without folders');
  if (name.startsWith('.')) throw new AppError('bad_request', 'a file name may not start with a dot');
  if (CONTROL.test(name)) throw new AppError('bad_request', 'a file name may not hold control characters');
  if (Buffer.byteLength(name, 'utf8') > MAX_NAME_BYTES) throw new AppError('bad_request', `a file name is at most ${MAX_NAME_BYTES} bytes`);
  return name;
}

/** Splits `{hash}/{name}` after the route prefix; the name is checked (checkUploadName). */
export function splitUploadPath(raw: string): { hash: string; name: string } {
  const trimmed = raw.replace(/^\/+/u, '');
  const slash = trimmed.indexOf('/');
  if (slash <= 0) throw new AppError('bad_request', 'a file name is needed: /api/public/upload/{hash}/{name}');
  return { hash: trimmed.slice(0, slash), name: checkUploadName(trimmed.slice(slash + 1)) };
}

/** The `n`th name for `name`: itself for 0, then `stem (n).ext` (ext: the last `.xxx`). */
export function storedName(name: string, n: number): string {
  if (n === 0) return name;
  const dot = name.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  return `${stem} (${n})${ext}`;
}
