import { createHash, randomBytes } from 'node:crypto';
import { AppError } from '../errors';
import type { ApiTokenRecord, Database, Permissions, UserRecord } from '../state/schema';
import type { Store } from '../state/store';

/** What every API token starts with (beyond.md §4.1); a JWT never does. */
export const API_TOKEN_PREFIX = 'fm_';

const TOKEN_SHAPE = /^fm_[A-Za-z0-9_-]{43}$/;
const DAY_MS = 86_400_000;
/** `lastUsed` is written at most this often per token: no state write per request. */
const TOUCH_EVERY_MS = 60_000;
const PERM_KEYS: readonly (keyof Permissions)[] = ['admin', 'execute', 'create', 'rename', 'modify', 'delete', 'share', 'download'];

/** A verified token: the owner as stored and the rights the token carries (its `perm` ∩ the owner's). */
export interface VerifiedApiToken {
  user: UserRecord;
  perm: Permissions;
  record: ApiTokenRecord;
}

/** True when `raw` has the shape of an API token (`fm_` + 43 base64url characters). */
export function looksLikeApiToken(raw: string | undefined): raw is string {
  return !!raw && raw.startsWith(API_TOKEN_PREFIX) && TOKEN_SHAPE.test(raw);
}

/** The stored form of a token: hex SHA-256 (the token has 256 random bits: no salt or stretching needed). */
export function hashApiToken(raw: string): string {
  return createHash('sha256').update(raw).digest('hex');
}

/** A new token: `fm_` + 32 random bytes as base64url (43 characters). */
export function newApiToken(): string {
  return API_TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

/** Both permission sets at once: a token never carries more than its owner holds now. */
export function intersectPerms(a: Permissions, b: Permissions): Permissions {
  const out = { ...a };
  for (const k of PERM_KEYS) out[k] = a[k] && b[k];
  return out;
}

// Per-instance cache derived from the state: rebuilt when the state object changes (every commit
// and every re-read replaces it), so a lookup is one hash and one Map access.
const indexes = new WeakMap<Readonly<Database>, Map<string, ApiTokenRecord>>();

function indexOf(db: Readonly<Database>): Map<string, ApiTokenRecord> {
  let index = indexes.get(db);
  if (!index) {
    index = new Map((db.tokens ?? []).map((t) => [t.hash, t]));
    indexes.set(db, index);
  }
  return index;
}

/** A token as the state holds it, checked against expiry and its owner; null when it is no good. */
export function findApiToken(db: Readonly<Database>, raw: string, nowMs: number): VerifiedApiToken | null {
  if (!looksLikeApiToken(raw)) return null;
  const record = indexOf(db).get(hashApiToken(raw));
  if (!record || (record.expires > 0 && record.expires <= nowMs)) return null;
  const user = db.users.find((u) => u.id === record.userId);
  if (!user) return null;
  return { user, perm: intersectPerms(record.perm, user.perm), record };
}

const touching = new Set<string>();

/** Records the token's use, at most once a minute per token; never fails the request it serves. */
export function touchApiToken(store: Store, record: ApiTokenRecord, nowMs: number): Promise<void> {
  if (nowMs - record.lastUsed < TOUCH_EVERY_MS || touching.has(record.id)) return Promise.resolve();
  touching.add(record.id);
  return store.update((db) => {
    const t = (db.tokens ?? []).find((x) => x.id === record.id);
    if (t) t.lastUsed = nowMs;
  }).catch(() => undefined).finally(() => touching.delete(record.id));
}

/**
 * THE check of an API token for every caller (the API auth plugin, WebDAV Basic auth): the owner
 * and the rights of token `raw`, or null when it is unknown, expired, revoked or its owner gone.
 * A hash and a Map lookup (never bcrypt); notes the use (`lastUsed`, at most once a minute).
 */
export function verifyApiToken(store: Store, raw: string, nowMs: number = Date.now()): { user: UserRecord; perm: Permissions } | null {
  const found = findApiToken(store.data(), raw, nowMs);
  if (!found) return null;
  void touchApiToken(store, found.record, nowMs);
  return { user: found.user, perm: found.perm };
}

/** What a new token asks for: `expiresInDays` 0 = never; `perm` missing = the owner's rights. */
export interface NewApiToken {
  name: string;
  expiresInDays: number;
  perm?: Partial<Permissions>;
}

function checkedPerm(owner: Permissions, asked: Partial<Permissions> | undefined): Permissions {
  if (!asked) return { ...owner };
  const perm = { ...owner };
  for (const k of PERM_KEYS) {
    const want = asked[k] ?? false;
    if (want && !owner[k]) throw new AppError('bad_request', `the token cannot have the permission "${k}": its owner does not`);
    perm[k] = want;
  }
  return perm;
}

function checkedName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '') throw new AppError('bad_request', 'the token name is empty');
  if (trimmed.length > 100) throw new AppError('bad_request', 'the token name is longer than 100 characters');
  return trimmed;
}

/**
 * Creates a token for `owner` with at most the rights `ownerPerm` (the caller's current rights);
 * returns the record and the token, which is never stored.
 */
export async function createApiToken(store: Store, owner: { id: number; perm: Permissions }, req: NewApiToken & { nowMs: number }): Promise<{ record: ApiTokenRecord; token: string }> {
  const days = req.expiresInDays;
  if (!Number.isInteger(days) || days < 0 || days > 36_500) throw new AppError('bad_request', 'expiresInDays must be a whole number from 0 (never) to 36500');
  const token = newApiToken();
  const record: ApiTokenRecord = {
    id: randomBytes(9).toString('base64url'),
    userId: owner.id,
    name: checkedName(req.name),
    hash: hashApiToken(token),
    created: req.nowMs,
    expires: days === 0 ? 0 : req.nowMs + days * DAY_MS,
    lastUsed: 0,
    perm: checkedPerm(owner.perm, req.perm),
  };
  await store.update((db) => {
    if (!db.users.some((u) => u.id === owner.id)) throw new AppError('not_found');
    db.tokens = [...(db.tokens ?? []), record];
  });
  return { record, token };
}

/** The tokens of user `userId`, oldest first. */
export function listApiTokens(db: Readonly<Database>, userId: number): ApiTokenRecord[] {
  return (db.tokens ?? []).filter((t) => t.userId === userId).sort((a, b) => a.created - b.created);
}

/** Revokes token `id` of user `userId` (404 when that user has no such token). */
export async function revokeApiToken(store: Store, userId: number, id: string): Promise<void> {
  await store.update((db) => {
    const before = db.tokens ?? [];
    const after = before.filter((t) => !(t.id === id && t.userId === userId));
    if (after.length === before.length) throw new AppError('not_found');
    db.tokens = after;
  });
}
