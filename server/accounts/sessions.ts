import { AppError } from '../errors';
import type { UserRecord } from '../state/schema';
import { createMemoryEpochChannel, type EpochChannel } from '../state/epochs';
import type { Store } from '../state/store';

/**
 * What this instance knows about sessions beyond the state. When each user record last changed
 * (api.md §2.3): a token issued before that gets the `X-Renew-Token: true` hint so the client
 * fetches one carrying the new values (a hint only, kept in memory as upstream does). And the
 * session epochs announced (beyond.md §10): revocation proper is the persisted `sessionEpoch`,
 * but a change made on another instance is heard through the epoch channel within a second,
 * before this instance's view of the state may show it. Both travel on the channel: a message
 * (id, epoch) says "user id changed", and its epoch, when above 0, ends that user's older tokens.
 */
export interface SessionTracker {
  /** Notes that user `id` was updated at `nowMs`, and tells every instance. */
  markUpdated(id: number, nowMs?: number): void;
  /** The last update time (ms) of user `id`, or 0. */
  updatedAt(id: number): number;
  /** Forgets a deleted user. */
  forget(id: number): void;
  /** The newest session epoch announced for user `id` by any instance, or 0. */
  epochOf(id: number): number;
  /** Announces to every instance that user `id`'s tokens issued until `epoch` ended (once the state holds it). */
  revoked(id: number, epoch: number): Promise<void>;
  /** Stops listening to the channel. */
  close(): void;
}

/** Bounds the epochs heard: a flood of revocations must not grow memory without end. */
const MAX_HEARD = 100_000;

/**
 * Creates the tracker of one instance; changes travel on `channel` (in-process when not given).
 * `onError` hears announcements of updates that could not be sent (a hint only: never fatal).
 */
export function createSessionTracker(channel: EpochChannel = createMemoryEpochChannel(), onError: (err: unknown) => void = () => undefined): SessionTracker {
  const updated = new Map<number, number>();
  const heard = new Map<number, number>();
  const hear = (id: number, epoch: number): void => {
    if (epoch <= (heard.get(id) ?? 0)) return;
    heard.delete(id);
    // The state holds every epoch too: dropping the oldest heard only waits for the state's view.
    if (heard.size >= MAX_HEARD) heard.delete(heard.keys().next().value ?? id);
    heard.set(id, epoch);
  };
  const stop = channel.onChange((id, epoch) => {
    hear(id, epoch);
    // Heard from any instance, this one included (whose own time is already there).
    updated.set(id, Math.max(updated.get(id) ?? 0, Date.now()));
  });
  return {
    markUpdated(id, nowMs = Date.now()) {
      updated.set(id, nowMs);
      channel.publish(id, 0).catch(onError);
    },
    updatedAt: (id) => updated.get(id) ?? 0,
    forget(id) {
      updated.delete(id);
    },
    epochOf: (id) => heard.get(id) ?? 0,
    async revoked(id, epoch) {
      hear(id, epoch);
      await channel.publish(id, epoch);
    },
    close: stop,
  };
}

/**
 * The session epoch that ends every token issued until `nowMs`: whole seconds, always moving
 * forward, and at least the issue time of any token handed out so far (token.ts `issueTime`).
 */
export function nextEpoch(user: Pick<UserRecord, 'sessionEpoch'>, nowMs: number): number {
  return Math.max(Math.floor(nowMs / 1000), Math.floor(user.sessionEpoch) + 1);
}

/**
 * Ends every token of user `id` issued until now ("log out everywhere", api.md §14) and tells
 * every instance; 404 if gone.
 */
export async function endSessions(ctx: { store: Store; sessions: SessionTracker }, id: number, nowMs: number): Promise<void> {
  const epoch = await ctx.store.update((db) => {
    const user = db.users.find((u) => u.id === id);
    if (!user) throw new AppError('not_found');
    user.sessionEpoch = nextEpoch(user, nowMs);
    return user.sessionEpoch;
  });
  await ctx.sessions.revoked(id, epoch);
}
