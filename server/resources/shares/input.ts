import type { ShareCreateBody, ShareKind } from '../../contract/share';
import { AppError } from '../../errors';

/** What a new share asks for, validated. */
export interface ShareRequest {
  /** '' for no password. */
  password: string;
  /** Seconds until the link expires; 0 = never. */
  lifetimeSeconds: number;
  /** beyond.md §2: a download link or an upload link (a file request). */
  kind: ShareKind;
  /** Downloads allowed; 0 = unlimited. */
  maxDownloads: number;
}

/** bcrypt reads at most 72 bytes: a longer password would be silently cut, so it is refused. */
export const MAX_SHARE_PASSWORD_BYTES = 72;

/** The largest `expires` accepted (api.md: 1 to 2147483647, 0 or empty = permanent). */
export const MAX_EXPIRES = 2_147_483_647;

const UNIT_SECONDS: Readonly<Record<string, number>> = { seconds: 1, minutes: 60, hours: 3600, days: 86_400 };

/** Seconds per unit: seconds, minutes, days; anything else means hours, as upstream. */
function unitSeconds(unit: string | undefined): number {
  return (unit !== undefined && Object.hasOwn(UNIT_SECONDS, unit) ? UNIT_SECONDS[unit] : undefined) ?? 3600;
}

/** A whole number of units, as Go's strconv.Atoi reads it but bounded (api.md §14: 400, not 500). */
function parseExpires(raw: string): number {
  if (raw === '') return 0;
  if (!/^\+?\d{1,10}$/u.test(raw)) throw new AppError('bad_request', `invalid expires "${raw.slice(0, 32)}": a whole number of units from 0 to ${MAX_EXPIRES}`);
  const n = Number(raw);
  if (n > MAX_EXPIRES) throw new AppError('bad_request', `invalid expires "${raw}": at most ${MAX_EXPIRES}`);
  return n;
}

/** `kind` of beyond.md §2: absent means a download link (filebrowser's clients send none). */
function parseKind(raw: string | undefined): ShareKind {
  if (raw === undefined || raw === 'download') return 'download';
  if (raw === 'upload') return 'upload';
  throw new AppError('bad_request', `invalid kind "${raw.slice(0, 32)}": "download" or "upload"`);
}

/** `maxDownloads` of beyond.md §2: a whole number from 0 (unlimited); only download links have one. */
function parseMaxDownloads(raw: number | undefined, kind: ShareKind): number {
  if (raw === undefined) return 0;
  if (!Number.isSafeInteger(raw) || raw < 0) throw new AppError('bad_request', `invalid maxDownloads ${raw}: a whole number from 0 (unlimited)`);
  if (raw > 0 && kind === 'upload') throw new AppError('bad_request', 'an upload link has no download limit');
  return raw;
}

/**
 * Reads the body of POST /api/share{p} (api.md §3.15): an absent body is a decoding error as
 * upstream's (400); a malformed `expires` or an over-long password answers 400 too.
 */
export function shareRequest(body: ShareCreateBody | undefined): ShareRequest {
  if (body === undefined) throw new AppError('bad_request', 'failed to decode body: EOF');
  const { password = '', expires = '', unit, kind: rawKind, maxDownloads } = body ?? {};
  if (Buffer.byteLength(password, 'utf8') > MAX_SHARE_PASSWORD_BYTES) {
    throw new AppError('bad_request', `password is too long, maximum length is ${MAX_SHARE_PASSWORD_BYTES} bytes`);
  }
  const count = parseExpires(expires);
  const kind = parseKind(rawKind);
  return { password, lifetimeSeconds: count * unitSeconds(unit), kind, maxDownloads: parseMaxDownloads(maxDownloads, kind) };
}
