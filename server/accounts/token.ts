import { createHmac, timingSafeEqual } from 'node:crypto';
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
  /** Issue time in unix seconds, with a millisecond fraction so revocation is exact. */
  iat: number;
  exp: number;
  nbf?: number;
}

/** Why a token was refused; `expired` alone allows the proxy-auth exception of api.md §2.5. */
export type TokenFailure = 'malformed' | 'signature' | 'expired' | 'claims';

export type VerifyResult = { ok: true; claims: TokenClaims } | { ok: false; reason: TokenFailure; claims?: TokenClaims };

export const TOKEN_ISSUER = 'filemgr';

const HEADER = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));

function base64url(text: string | Buffer): string {
  return Buffer.from(text).toString('base64url');
}

function hmac(key: Buffer, data: string): Buffer {
  return createHmac('sha256', key).update(data).digest();
}

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

/**
 * Signs an HS256 JWT for `user` with the base64 settings key, valid `lifetimeMs` from `nowMs`.
 * `iat` carries milliseconds and is always after the user's session epoch, so a token issued
 * right after "log out everywhere" is not itself revoked.
 */
export function signToken(user: UserRecord, key: string, opts: { lifetimeMs: number; nowMs: number }): string {
  const iat = Math.round(Math.max(opts.nowMs, user.sessionEpoch * 1000 + 1)) / 1000;
  const claims: TokenClaims = { user: tokenUser(user), iss: TOKEN_ISSUER, iat, exp: Math.floor((opts.nowMs + opts.lifetimeMs) / 1000) };
  const body = `${HEADER}.${base64url(JSON.stringify(claims))}`;
  return `${body}.${hmac(Buffer.from(key, 'base64'), body).toString('base64url')}`;
}

/** True when the string has the compact JWT shape (exactly two dots, api.md §2.1). */
export function looksLikeToken(value: string | undefined): value is string {
  return !!value && value.split('.').length === 3;
}

function parseJson(part: string): unknown {
  try {
    return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
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

function signatureValid(token: string, key: string): boolean {
  const cut = token.lastIndexOf('.');
  const expected = hmac(Buffer.from(key, 'base64'), token.slice(0, cut));
  const given = Buffer.from(token.slice(cut + 1), 'base64url');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Verifies a compact JWT: HS256 only (any other `alg`, `none` included, is refused), a valid
 * signature with the settings key, a numeric `exp` in the future and `nbf` (if any) in the past.
 */
export function verifyToken(token: string, key: string, nowMs: number): VerifyResult {
  if (!looksLikeToken(token)) return { ok: false, reason: 'malformed' };
  const [headerPart = '', payloadPart = ''] = token.split('.');
  const header = parseJson(headerPart);
  if (!isRecord(header) || header.alg !== 'HS256') return { ok: false, reason: 'malformed' };
  if (!signatureValid(token, key)) return { ok: false, reason: 'signature' };
  const claims = claimsShape(parseJson(payloadPart));
  if (!claims) return { ok: false, reason: 'claims' };
  const now = nowMs / 1000;
  if (claims.nbf !== undefined && claims.nbf > now) return { ok: false, reason: 'claims' };
  if (claims.exp <= now) return { ok: false, reason: 'expired', claims };
  return { ok: true, claims };
}
