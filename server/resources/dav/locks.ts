import { randomUUID } from 'node:crypto';
import { isWithin } from '../../lib/within';
import type { Ephemeral } from '../../state/ephemeral';

/** A WebDAV write lock (RFC 4918 §6). `key` names the resource on disk, the same for every user. */
export interface DavLock {
  token: string;
  /** The locked resource: its real path (canonical across users' scopes). */
  key: string;
  depth: '0' | 'infinity';
  scope: 'exclusive' | 'shared';
  /** The client's `<D:owner>` element, serialised, or ''. */
  owner: string;
  /** The user who took the lock: only they may use its token. */
  userId: number;
  timeoutSeconds: number;
  /** Unix milliseconds. */
  expires: number;
}

export type NewLock = Omit<DavLock, 'token' | 'expires'>;

/**
 * The locks of the WebDAV server, on the shared-ephemeral store (beyond.md §10): records with an
 * expiry, changed under one named lock so a check-then-take is atomic across instances.
 */
export interface DavLocks {
  /** Locks that apply to `key`: on it, or depth infinity on an ancestor. */
  covering(key: string): Promise<DavLock[]>;
  /** Locks on `key` or on anything below it. */
  within(key: string): Promise<DavLock[]>;
  /** The lock of a token, if it is live. */
  get(token: string): Promise<DavLock | undefined>;
  /**
   * Takes a lock unless one conflicts (RFC 4918 §6.1, §9.10.6): returns it, or undefined on a
   * conflict. `prepare` runs inside the same critical section before the lock is stored.
   */
  take(lock: NewLock, prepare?: () => Promise<void>): Promise<DavLock | undefined>;
  /** Gives a lock a new timeout; the refreshed lock, or undefined when it is gone. */
  refresh(token: string, timeoutSeconds: number): Promise<DavLock | undefined>;
  /** Removes a lock. */
  remove(token: string): Promise<void>;
  /** Removes every lock on `key` or below it (the resource was deleted or moved away). */
  removeWithin(key: string): Promise<void>;
  /** Runs `fn` in the locks' critical section (check and write as one step). */
  exclusive<T>(fn: () => Promise<T>): Promise<T>;
}

const PREFIX = 'dav-lock:';
const MUTEX = 'dav-locks';

function conflicts(held: DavLock, wanted: NewLock): boolean {
  if (held.scope === 'shared' && wanted.scope === 'shared') return false;
  // The held lock covers the wanted root, or the wanted depth-infinity lock covers the held one.
  const heldCovers = held.key === wanted.key || (held.depth === 'infinity' && isWithin(held.key, wanted.key));
  const wantedCovers = wanted.depth === 'infinity' && isWithin(wanted.key, held.key);
  return heldCovers || wantedCovers;
}

/** The lock table on an Ephemeral store; `now` for tests. */
export function createDavLocks(ephemeral: Ephemeral, now: () => number = Date.now): DavLocks {
  const all = async (): Promise<DavLock[]> => (await ephemeral.list<DavLock>(PREFIX)).map((r) => r.value).filter((l) => l.expires > now());
  const store = (l: DavLock): Promise<void> => ephemeral.put(PREFIX + l.token, l, Math.max(1, l.expires - now()));
  const exclusive = <T>(fn: () => Promise<T>): Promise<T> => ephemeral.withLock(MUTEX, fn);
  return {
    exclusive,
    async covering(key) {
      return (await all()).filter((l) => l.key === key || (l.depth === 'infinity' && isWithin(l.key, key)));
    },
    async within(key) {
      return (await all()).filter((l) => isWithin(key, l.key));
    },
    async get(token) {
      const l = await ephemeral.get<DavLock>(PREFIX + token);
      return l && l.expires > now() ? l : undefined;
    },
    take(wanted, prepare) {
      return exclusive(async () => {
        if ((await all()).some((held) => conflicts(held, wanted))) return undefined;
        await prepare?.();
        const lock: DavLock = { ...wanted, token: `urn:uuid:${randomUUID()}`, expires: now() + wanted.timeoutSeconds * 1000 };
        await store(lock);
        return lock;
      });
    },
    refresh(token, timeoutSeconds) {
      return exclusive(async () => {
        const l = await ephemeral.get<DavLock>(PREFIX + token);
        if (!l || l.expires <= now()) return undefined;
        const next = { ...l, timeoutSeconds, expires: now() + timeoutSeconds * 1000 };
        await store(next);
        return next;
      });
    },
    remove: (token) => ephemeral.delete(PREFIX + token),
    async removeWithin(key) {
      for (const l of await all()) if (isWithin(key, l.key)) await ephemeral.delete(PREFIX + l.token);
    },
  };
}
