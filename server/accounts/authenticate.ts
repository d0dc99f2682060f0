import { AppError } from '../errors';
import type { Database, UserRecord } from '../state/schema';
import type { SessionTracker } from './sessions';
import { DEFAULT_LOGOUT_PAGE } from './settings-normalize';
import { looksLikeToken, type TokenClaims, type TokenCodec } from './token';

/** What the per-request check reads from a request. */
export interface TokenSource {
  method: string;
  /** The `X-Auth` header. */
  header: string | undefined;
  /** The `Cookie` header. */
  cookie: string | undefined;
  /** Reads another request header (the proxy-auth header of api.md §2.5). */
  headerValue: (name: string) => string | undefined;
}

export interface Authenticated {
  user: UserRecord;
  claims: TokenClaims;
  /** Whether to send `X-Renew-Token: true` (api.md §2.3). */
  renew: boolean;
}

const RENEW_BEFORE_MS = 3_600_000;

function cookieToken(cookie: string | undefined): string | undefined {
  if (!cookie) return undefined;
  for (const part of cookie.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === 'auth') return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** The token of a request: `X-Auth` (two dots), else on GET only the `auth` cookie (api.md §2.1). */
export function extractToken(src: TokenSource): string | undefined {
  if (looksLikeToken(src.header)) return src.header;
  if (src.method !== 'GET' && src.method !== 'HEAD') return undefined;
  const fromCookie = cookieToken(src.cookie);
  return looksLikeToken(fromCookie) ? fromCookie : undefined;
}

/** api.md §2.5: an expired token is still good when the proxy header re-asserts the same user. */
function proxyWaiver(db: Readonly<Database>, src: TokenSource, claims: TokenClaims | undefined): boolean {
  const s = db.settings;
  if (!claims || s.authMethod !== 'proxy' || (s.logoutPage || DEFAULT_LOGOUT_PAGE) === DEFAULT_LOGOUT_PAGE) return false;
  const header = db.auther.header;
  const name = header ? src.headerValue(header) : undefined;
  if (!name) return false;
  return db.users.some((u) => u.username === name && u.id === claims.user.id);
}

/**
 * The signed-in user of a request: a valid HS256 token, the user reloaded from the state by id
 * (permissions never come from the token), refused (401) when the user is gone or the token was
 * issued before the user's session epoch (revocation, api.md §14).
 */
export function authenticate(db: Readonly<Database>, src: TokenSource, deps: { sessions: SessionTracker; tokens: TokenCodec; nowMs: number }): Authenticated {
  const token = extractToken(src);
  if (!token) throw new AppError('unauthorized');
  const result = deps.tokens.verify(token, db.settings.key, deps.nowMs);
  let claims: TokenClaims;
  if (result.ok) claims = result.claims;
  else if (result.reason === 'expired' && result.claims && proxyWaiver(db, src, result.claims)) claims = result.claims;
  else throw new AppError('unauthorized');
  const user = db.users.find((u) => u.id === claims.user.id);
  if (!user) throw new AppError('unauthorized');
  const iat = typeof claims.iat === 'number' ? claims.iat : 0;
  // The epoch another instance announced counts before this instance's view of the state shows it.
  const epoch = Math.max(user.sessionEpoch, deps.sessions.epochOf(user.id));
  if (epoch > 0 && iat <= epoch) throw new AppError('unauthorized');
  // Whole seconds, as upstream: the update's second is after the token's issue second.
  const renew = claims.exp * 1000 - deps.nowMs < RENEW_BEFORE_MS || iat < Math.floor(deps.sessions.updatedAt(user.id) / 1000);
  return { user, claims, renew };
}
