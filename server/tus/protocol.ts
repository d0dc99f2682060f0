import { AppError } from '../errors';

/**
 * The tus 1.0 wire vocabulary filemgr speaks (api.md §3.17 with the §14 decisions): core and
 * `creation` and `termination`, addressed by target path, no checksum, concatenation or deferred
 * length. Numbers from api.md §12.
 */

/** The only protocol version served; sent as `Tus-Resumable` and `Tus-Version`. */
export const TUS_VERSION = '1.0.0';

/** The extensions announced by OPTIONS. */
export const TUS_EXTENSIONS = 'creation,termination';

/** The one Content-Type a PATCH may carry (tus 1.0 core: anything else is 415). */
export const OFFSET_CONTENT_TYPE = 'application/offset+octet-stream';

/** Silence after which an unfinished upload expires (api.md §12). */
export const UPLOAD_TTL_MS = 3 * 60 * 1000;

/** How much of a rejected request body is read and discarded to keep the connection (§3.17 step 9). */
export const DRAIN_LIMIT = 32 * 1024 * 1024;

/** The largest upload: lengths are JavaScript numbers, exact up to 2^53 - 1 bytes. */
export const MAX_UPLOAD_LENGTH = Number.MAX_SAFE_INTEGER;

/** Go's strconv.ParseInt accepts an optional sign and decimal digits. */
const INT = /^[+-]?\d+$/;

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The declared `Upload-Length`: a non-negative integer (400 `invalid upload length: ...` when missing,
 * malformed or negative; 413 past MAX_UPLOAD_LENGTH, as tus answers for a length over Tus-Max-Size).
 */
export function parseUploadLength(header: string | string[] | undefined): number {
  const text = single(header);
  if (text === undefined || text === '') throw new AppError('bad_request', 'invalid upload length: missing Upload-Length header');
  if (!INT.test(text)) throw new AppError('bad_request', `invalid upload length: ${JSON.stringify(text)} is not an integer`);
  const value = BigInt(text);
  if (value < 0n) throw new AppError('bad_request', `invalid upload length: ${text} is negative`);
  if (value > BigInt(MAX_UPLOAD_LENGTH)) throw new AppError('too_large', `upload length ${text} is over ${MAX_UPLOAD_LENGTH}`);
  return Number(value);
}

/** The `Upload-Offset` of a PATCH: a non-negative integer, else 400 `invalid upload offset`. */
export function parseUploadOffset(header: string | string[] | undefined): number {
  const text = single(header);
  if (text === undefined || !INT.test(text)) throw new AppError('bad_request', 'invalid upload offset');
  const value = BigInt(text);
  if (value < 0n || value > BigInt(MAX_UPLOAD_LENGTH)) throw new AppError('bad_request', 'invalid upload offset');
  return Number(value);
}

/**
 * tus 1.0: a request naming another protocol version is refused with 412 and the versions served;
 * a request without the header is served as upstream serves it (api.md §14).
 */
export function checkTusResumable(header: string | string[] | undefined): void {
  const text = single(header);
  if (text === undefined || text === TUS_VERSION) return;
  throw new AppError('precondition_failed', `unsupported tus version ${text}`, { 'Tus-Version': TUS_VERSION });
}

/** True when a PATCH's Content-Type is exactly the tus one (parameters are not allowed either). */
export function isOffsetContentType(header: string | undefined): boolean {
  return header === OFFSET_CONTENT_TYPE;
}

/**
 * The `Location` of a created upload (§3.17 step 6): `/<base URL without slashes>` (or nothing)
 * followed by the request's own path, percent-encoding preserved, without the query.
 */
export function uploadLocation(baseURL: string, requestUrl: string): string {
  const base = baseURL.replace(/^\/+|\/+$/g, '');
  const path = requestUrl.split('?')[0] ?? '';
  return `${base === '' ? '' : `/${base}`}${path}`;
}
