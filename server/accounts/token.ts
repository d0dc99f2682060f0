import type { JWT } from '@fastify/jwt';
import type { Permissions, UserRecord } from '../state/schema';

/** The `user` claim of api.md §2.2: exactly these fields, copied from the record at issue time. */
export interface TokenUser {
  id: number;
  locale: string;
  viewMode: string;
  singleClick: boolean;
  redirectAfterCopyMove: boolean;
  perm: Permissions;
  commands: string[];
  lockPassword: boolean;
  hideDotfiles: boolean;
  dateFormat: boolean;
  username: string;
  aceEditorTheme: string;
}

export interface TokenClaims {
  user: TokenUser;
  iss: string;
  /** Issue time in unix seconds (tokens of earlier filemgr versions may carry a fraction). */
  iat: number;
  exp: number;
  nbf?: number;
}

/** Why a token was refused; `expired` alone allows the proxy-auth exception of api.md §2.5. */
export type TokenFailure = 'malformed' | 'signature' | 'expired' | 'claims';

export type VerifyResult = { ok: true; claims: TokenClaims } | { ok: false; reason: TokenFailure; claims?: TokenClaims };

export const TOKEN_ISSUER = 'filemgr';

/** The `user` claim for a record (never the hash, scope or rules). */
export function tokenUser(u: UserRecord): TokenUser {
  return {
    id: u.id,
    locale: u.locale,
    viewMode: u.viewMode,
    singleClick: u.singleClick,
    redirectAfterCopyMove: u.redirectAfterCopyMove,
    perm: { ...u.perm },
    commands: [...u.commands],
    lockPassword: u.lockPassword,
    hideDotfiles: u.hideDotfiles,
    dateFormat: u.dateFormat,
    username: u.username,
    aceEditorTheme: u.aceEditorTheme,
  };
}

/** True when the string has the compact JWT shape (exactly two dots, api.md §2.1). */
export function looksLikeToken(value: string | undefined): value is string {
  return !!value && value.split('.').length === 3;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function claimsShape(payload: unknown): TokenClaims | undefined {
  if (!isRecord(payload) || !isRecord(payload.user)) return undefined;
  const { user, exp, iat, nbf } = payload;
  if (typeof user.id !== 'number' || typeof exp !== 'number') return undefined;
  if (iat !== undefined && typeof iat !== 'number') return undefined;
  if (nbf !== undefined && typeof nbf !== 'number') return undefined;
  return payload as unknown as TokenClaims;
}

/**
 * The issue time of a new token: now in whole seconds (api.md §2.2), but always after the user's
 * session epoch, so a token issued in the same second as "log out everywhere" survives it while
 * every token issued before it does not (the check is `iat <= sessionEpoch`).
 */
export function issueTime(user: Pick<UserRecord, 'sessionEpoch'>, nowMs: number): number {
  return Math.max(Math.floor(nowMs / 1000), Math.floor(user.sessionEpoch) + 1);
}

/** How fast-jwt's refusals read here; any other (a missing or mistyped claim, `nbf` ahead) is `claims`. */
const FAILURES: Readonly<Record<string, TokenFailure>> = {
  FAST_JWT_MALFORMED: 'malformed',
  FAST_JWT_INVALID_ALGORITHM: 'malformed',
  FAST_JWT_MISSING_SIGNATURE: 'malformed',
  FAST_JWT_INVALID_SIGNATURE: 'signature',
  FAST_JWT_EXPIRED: 'expired',
};

function failureOf(err: unknown): TokenFailure {
  const code = isRecord(err) && typeof err.code === 'string' ? err.code : '';
  return FAILURES[code] ?? 'claims';
}

/** Signs and verifies session tokens; the key is the base64 settings key, read at each call. */
export interface TokenCodec {
  /** An HS256 JWT for `user`, valid `lifetimeMs` from `nowMs`. */
  sign(user: UserRecord, key: string, opts: { lifetimeMs: number; nowMs: number }): string;
  /**
   * HS256 only (any other `alg`, `none` included, is refused), a valid signature with `key`, a
   * numeric `exp` after `nowMs`, `nbf` (if any) before it, and a `user` with a numeric id.
   */
  verify(token: string, key: string, nowMs: number): VerifyResult;
}

/**
 * The tokens of api.md §2.2 through @fastify/jwt (fast-jwt underneath). The key is passed on
 * every call, never fixed at registration: a CLI command may replace it while the server runs.
 */
export function tokenCodec(jwt: JWT): TokenCodec {
  return {
    sign(user, key, opts) {
      const claims: TokenClaims = { user: tokenUser(user), iss: TOKEN_ISSUER, iat: issueTime(user, opts.nowMs), exp: Math.floor((opts.nowMs + opts.lifetimeMs) / 1000) };
      return jwt.sign(claims, { key: Buffer.from(key, 'base64'), algorithm: 'HS256' });
    },
    verify(token, key, nowMs) {
      if (!looksLikeToken(token)) return { ok: false, reason: 'malformed' };
      try {
        const options = { key: Buffer.from(key, 'base64'), algorithms: ['HS256' as const], clockTimestamp: nowMs, requiredClaims: ['exp'] };
        const claims = claimsShape(jwt.verify(token, options));
        return claims ? { ok: true, claims } : { ok: false, reason: 'claims' };
      } catch (err) {
        const reason = failureOf(err);
        // An expired token's claims still matter to the proxy-auth exception (api.md §2.5).
        const claims = reason === 'expired' ? claimsShape(jwt.decode(token)) : undefined;
        return claims ? { ok: false, reason, claims } : { ok: false, reason };
      }
    },
  };
}
