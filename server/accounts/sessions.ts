import { AppError } from '../errors';
import type { UserRecord } from '../state/schema';
import type { Store } from '../state/store';

/**
 * When each user record last changed in this process (api.md §2.3): a token issued before that
 * gets the `X-Renew-Token: true` hint so the client fetches one carrying the new values.
 * Process memory only, as upstream; revocation proper is the persisted `sessionEpoch`.
 */
export interface SessionTracker {
  /** Notes that user `id` was updated at `nowMs`. */
  markUpdated(id: number, nowMs?: number): void;
  /** The last update time (ms) of user `id`, or 0. */
  updatedAt(id: number): number;
  /** Forgets a deleted user. */
  forget(id: number): void;
}

/** Creates an in-memory tracker. */
export function createSessionTracker(): SessionTracker {
  const updated = new Map<number, number>();
  return {
    markUpdated(id, nowMs = Date.now()) {
      updated.set(id, nowMs);
    },
    updatedAt: (id) => updated.get(id) ?? 0,
    forget(id) {
      updated.delete(id);
    },
  };
}

/**
 * The session epoch that ends every token issued until `nowMs`: whole seconds, always moving
 * forward, and at least the issue time of any token handed out so far (token.ts `issueTime`).
 */
export function nextEpoch(user: Pick<UserRecord, 'sessionEpoch'>, nowMs: number): number {
  return Math.max(Math.floor(nowMs / 1000), Math.floor(user.sessionEpoch) + 1);
}

/** Ends every token of user `id` issued until now ("log out everywhere", api.md §14); 404 if gone. */
export async function endSessions(store: Store, id: number, nowMs: number): Promise<void> {
  await store.update((db) => {
    const user = db.users.find((u) => u.id === id);
    if (!user) throw new AppError('not_found');
    user.sessionEpoch = nextEpoch(user, nowMs);
  });
}
