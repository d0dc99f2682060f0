/** The claims the UI reads from a token (api.md §2.2); the signature is the server's business. */
export interface TokenClaims<User> {
  user: User;
  /** Expiry, unix seconds. */
  exp: number;
}

function base64UrlDecode(part: string): string {
  const base64 = part.replaceAll('-', '+').replaceAll('_', '/');
  const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
  const bytes = Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
  // Usernames may be non-ASCII: the payload is UTF-8 JSON.
  return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Decodes a compact JWT without verifying it; throws Error('token malformed') when unreadable. */
export function decodeToken<User>(token: string): TokenClaims<User> {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts[1]) throw new Error('token malformed');
  let payload: unknown;
  try {
    payload = JSON.parse(base64UrlDecode(parts[1]));
  } catch {
    throw new Error('token malformed');
  }
  if (!isObject(payload) || !isObject(payload.user) || typeof payload.exp !== 'number') {
    throw new Error('token malformed');
  }
  return { user: payload.user as User, exp: payload.exp };
}

/** Milliseconds from `nowMs` until the token expires (negative when already expired). */
export function msUntilExpiry(exp: number, nowMs: number): number {
  return exp * 1000 - nowMs;
}
