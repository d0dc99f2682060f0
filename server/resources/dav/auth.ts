import { createHash } from 'node:crypto';
import { verifyApiToken } from '../../accounts/api-tokens';
import { burnComparison, verifyPassword } from '../../accounts/password';
import { hasTotp } from '../../accounts/totp';
import { AppError } from '../../errors';
import type { Throttle } from '../../lib/throttle';
import type { UserRecord } from '../../state/schema';
import type { Store } from '../../state/store';

/** A verified name/password pair is trusted again without bcrypt for at most this long. */
const CACHE_MS = 5 * 60_000;
const CACHE_MAX = 1000;

export interface BasicAuthDeps {
  store: Store;
  throttle: Throttle;
  now?: () => number;
}

interface Verified {
  userId: number;
  /** The password hash and session epoch the pair was verified against. */
  hash: string;
  epoch: number;
  expires: number;
}

/** The credentials of an `Authorization: Basic` header, or undefined when there is none or it is malformed. */
export function basicCredentials(header: string | undefined): { name: string; secret: string } | undefined {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!m?.[1]) return undefined;
  const text = Buffer.from(m[1], 'base64').toString('utf8');
  const colon = text.indexOf(':');
  if (colon < 0) return undefined;
  return { name: text.slice(0, colon), secret: text.slice(colon + 1) };
}

export interface BasicAuth {
  /**
   * THE credential check of WebDAV: the user whose password or API token (beyond.md §4.1; its
   * rights are the token's) `secret` is, or 401. A user with two-factor sign-in on (§4.2) signs
   * in with tokens only.
   */
  authenticateBasic(name: string, secret: string): Promise<UserRecord>;
  /** The user of a request: no credentials or wrong ones answer 401, a locked-out pair 429. */
  userOf(req: { authorization: string | undefined; address: string; header: (name: string) => string | undefined }): Promise<UserRecord>;
}

/**
 * Basic authentication for /dav/. The cache of verified pairs is per instance (each instance of a
 * cluster verifies once on its own); an entry counts only while the user's password hash and
 * session epoch are what they were, so a password change or "log out everywhere" ends it at once.
 */
export function createBasicAuth(deps: BasicAuthDeps): BasicAuth {
  const now = deps.now ?? Date.now;
  const verified = new Map<string, Verified>();
  const keyOf = (name: string, secret: string): string => createHash('sha256').update(`${name}\u0000${secret}`).digest('base64');
  const cached = (key: string): UserRecord | undefined => {
    const v = verified.get(key);
    if (!v) return undefined;
    const user = deps.store.data().users.find((u) => u.id === v.userId);
    if (v.expires > now() && user?.password === v.hash && user.sessionEpoch === v.epoch && !hasTotp(deps.store.data(), user.id)) return user;
    verified.delete(key);
    return undefined;
  };
  const remember = (key: string, user: UserRecord): void => {
    if (verified.size >= CACHE_MAX) verified.delete(verified.keys().next().value ?? '');
    verified.set(key, { userId: user.id, hash: user.password, epoch: user.sessionEpoch, expires: now() + CACHE_MS });
  };
  const authenticateBasic = async (name: string, secret: string): Promise<UserRecord> => {
    if (secret.startsWith('fm_')) return tokenUserVerified(deps.store, { name, secret }, now);
    const key = keyOf(name, secret);
    const hit = cached(key);
    if (hit) return hit;
    // A password check costs a hash anyway: first make sure this instance has what another one
    // changed a moment ago (a new user or password, beyond.md §10). One cheap check.
    await deps.store.refresh({ verify: true });
    const user = deps.store.data().users.find((u) => u.username === name);
    if (!user) {
      await burnComparison(secret);
      throw new AppError('unauthorized');
    }
    if (!(await verifyPassword(secret, user.password))) throw new AppError('unauthorized');
    // The password alone is not enough for such a user (its second factor cannot travel in Basic auth).
    if (hasTotp(deps.store.data(), user.id)) throw new AppError('unauthorized');
    remember(key, user);
    return user;
  };
  return {
    authenticateBasic,
    async userOf(req) {
      const settings = deps.store.data().settings;
      if (settings.authMethod === 'noauth') return firstUser(deps.store);
      if (settings.authMethod === 'proxy') return proxyUser(deps.store, req.header);
      const creds = basicCredentials(req.authorization);
      if (!creds) throw challenge();
      const attempt = (): Promise<UserRecord> => authenticateBasic(creds.name, creds.secret);
      const user = await deps.throttle.guard({ address: req.address, name: creds.name }, attempt, ['unauthorized']).catch((err: unknown) => {
        throw err instanceof AppError && err.code === 'unauthorized' ? challenge() : err;
      });
      return structuredClone(user);
    },
  };
}

/** tokenUser, asking the store once more before a 401: the token may come from another instance a moment ago. */
async function tokenUserVerified(store: Store, creds: { name: string; secret: string }, now: () => number): Promise<UserRecord> {
  try {
    return tokenUser(store, creds, now());
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== 'unauthorized') throw error;
    await store.refresh({ verify: true });
    return tokenUser(store, creds, now());
  }
}

/**
 * The owner of API token `secret` with the token's rights, when `name` is that owner; else 401.
 * A hash lookup: not cached, so the owner, expiry and revocation are checked at every request.
 */
function tokenUser(store: Store, creds: { name: string; secret: string }, nowMs: number): UserRecord {
  const token = verifyApiToken(store, creds.secret, nowMs);
  if (token?.user.username !== creds.name) throw new AppError('unauthorized');
  return { ...token.user, perm: token.perm };
}

/** 401 with the Basic challenge (RFC 7617; charset tells clients to send UTF-8). */
function challenge(): AppError {
  return new AppError('unauthorized', undefined, { 'www-authenticate': 'Basic realm="filemgr", charset="UTF-8"' });
}

/** auth.method=noauth: everyone is the first user, as in the web app. */
function firstUser(store: Store): UserRecord {
  const user = store.data().users.find((u) => u.id === 1);
  if (!user) throw challenge();
  return structuredClone(user);
}

/** auth.method=proxy: the proxy's header names an existing user (WebDAV creates none). */
function proxyUser(store: Store, header: (name: string) => string | undefined): UserRecord {
  const field = store.data().auther.header ?? '';
  const name = field ? (header(field) ?? '').trim() : '';
  const user = name === '' ? undefined : store.data().users.find((u) => u.username === name);
  if (!user) throw challenge();
  return structuredClone(user);
}
