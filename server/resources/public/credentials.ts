import { createHash, timingSafeEqual } from 'node:crypto';
import { verifyPassword } from '../../accounts/password';
import { AppError } from '../../errors';
import type { Throttle } from '../../lib/throttle';
import type { ShareRecord } from '../../state/schema';

/** What a visitor presents for a password-protected link (api.md §3.16 step 2). */
export interface ShareCredentials {
  /** `?token=`: the link's download token, given out after a correct password. */
  token?: string | undefined;
  /** The `X-SHARE-PASSWORD` header, URL-encoded by the UI (encodeURIComponent). */
  password?: string | undefined;
  /** The client address (per --trustedProxy), the throttle's key with the hash. */
  address: string;
}

/** bcrypt reads 72 bytes at most; no stored password is longer, so a longer one never matches. */
const MAX_PASSWORD_BYTES = 72;

/** Constant-time equality of two secrets of any lengths (digests have equal lengths). */
export function secretsEqual(a: string, b: string): boolean {
  const digest = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();
  return timingSafeEqual(digest(a), digest(b));
}

/** Go's url.QueryUnescape: '+' is a space, %XX a byte; a bad escape is the client's error (400). */
export function queryUnescape(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/gu, ' '));
  } catch {
    throw new AppError('bad_request', 'invalid X-SHARE-PASSWORD encoding');
  }
}

async function verify(link: ShareRecord, creds: ShareCredentials): Promise<void> {
  if (creds.token && link.token && secretsEqual(creds.token, link.token)) return;
  const password = queryUnescape(creds.password ?? '');
  if (password === '' || Buffer.byteLength(password, 'utf8') > MAX_PASSWORD_BYTES) throw new AppError('unauthorized');
  if (!(await verifyPassword(password, link.password_hash ?? ''))) throw new AppError('unauthorized');
}

/**
 * Lets a visitor through a link's password (api.md §3.16 step 2, §14): the token in constant
 * time, else the password against its bcrypt hash; 401 otherwise. Wrong tokens and passwords
 * count as failures per (client address, link); while locked out every attempt, even a right
 * one, answers 429. A visit with no credential at all (the page asking for the password) is
 * answered 401 without counting.
 */
export async function checkCredentials(throttle: Throttle, link: ShareRecord, creds: ShareCredentials): Promise<void> {
  if (!link.password_hash) return;
  const key = { address: creds.address, name: link.hash };
  if (!creds.token && !creds.password) {
    await throttle.check(key.address, key.name);
    throw new AppError('unauthorized');
  }
  await throttle.guard(key, () => verify(link, creds), ['unauthorized']);
}
