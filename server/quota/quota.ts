import type { Readable } from 'node:stream';
import { AppError } from '../errors';
import type { GateFactory } from '../fs/gates';
import type { Ephemeral } from '../state/ephemeral';
import type { UserRecord } from '../state/schema';
import type { Store } from '../state/store';
import { trashBytesOf } from '../state/trash-records';
import { meteredBody } from './meter';
import type { WalkUsage } from './walk-usage';

/** What quotas need: the state, the gates (a user's scope), the shared counters, the usage sources. */
export interface QuotaDeps {
  store: Store;
  gates: GateFactory;
  /** Reservations of writes in progress, agreed by every instance (beyond.md §10). */
  ephemeral: Ephemeral;
  /** The search index's totals (beyond.md §7); null when it cannot answer now. */
  index?: { bytesBelow(real: string): Promise<number | null> };
  /** Usage when the index cannot answer. */
  walk: WalkUsage;
}

/** A user's quota and what they use (files below their scope plus their trash). */
export interface QuotaUsage {
  quota: number;
  used: number;
}

/** The bytes a write was let in with; released however the write ends. */
export interface Admission {
  /** The body, failing with 507 once its bytes pass what the quota leaves (nothing is kept then). */
  limit(body: Readable): Readable;
  /** Gives the reservation back; `kept`: the write succeeded (its growth now shows in the usage). */
  release(kept: boolean): Promise<void>;
}

/** A write to admit: what it replaces (its growth alone counts) and its declared length, if any. */
export interface WriteSize {
  /** Bytes of the file (or tree) the write replaces; 0 for a new one. */
  replaces: number;
  /** Declared length (Content-Length, Upload-Length, a copy's sum); null: known only as it streams. */
  length: number | null;
}

const NO_QUOTA: Admission = { limit: (body) => body, release: () => Promise.resolve() };

const reservedKey = (user: UserRecord): string => `quota:reserved:${user.id}`;

/** Quotas (beyond.md §6): usage, room, and the 507 admission of every write path. */
export function createQuotaService(deps: QuotaDeps) {
  const quotaOf = (user: UserRecord): number => deps.store.data().users.find((u) => u.id === user.id)?.quota ?? user.quota ?? 0;

  const scopeOf = async (user: UserRecord): Promise<string> => (await deps.gates.forUser(user, deps.store.data().settings)).realRoot;

  const filesBelow = async (real: string): Promise<number> => (await deps.index?.bytesBelow(real)) ?? deps.walk.bytesBelow(real);

  const used = async (user: UserRecord): Promise<number> => (await filesBelow(await scopeOf(user))) + trashBytesOf(deps.store, user.id);

  /** Reserves `bytes` more for `user` when they fit beside the usage and the other reservations. */
  const reserve = (user: UserRecord, bytes: number): Promise<boolean> =>
    bytes <= 0 ? Promise.resolve(true) : deps.ephemeral.withLock(`quota:${user.id}`, async () => {
      const quota = quotaOf(user);
      const taken = (await used(user)) + (await deps.ephemeral.count(reservedKey(user)));
      if (taken + bytes > quota) return false;
      await deps.ephemeral.add(reservedKey(user), bytes);
      return true;
    });

  return {
    /** Whether the user has a quota (beyond.md §6: 0 is none). */
    has: (user: UserRecord): boolean => quotaOf(user) > 0,

    /** The user's quota and usage; null for a user without a quota. */
    async usage(user: UserRecord): Promise<QuotaUsage | null> {
      const quota = quotaOf(user);
      return quota > 0 ? { quota, used: await used(user) } : null;
    },

    /** Bytes the quota still leaves beside usage and writes in progress; null without a quota. */
    async room(user: UserRecord): Promise<number | null> {
      const quota = quotaOf(user);
      if (quota <= 0) return null;
      return Math.max(0, quota - (await used(user)) - (await deps.ephemeral.count(reservedKey(user))));
    },

    /**
     * Lets a write in, or throws 507 when its declared growth does not fit (nothing written yet).
     * The declared bytes are reserved at once, atomically, so concurrent writes that together pass
     * the quota are refused beyond what fits; more bytes than declared are reserved as they stream.
     */
    async admit(user: UserRecord, size: WriteSize): Promise<Admission> {
      if (quotaOf(user) <= 0) return NO_QUOTA;
      let reserved = 0;
      const grow = async (bytes: number): Promise<boolean> => {
        if (!(await reserve(user, bytes))) return false;
        reserved += Math.max(0, bytes);
        return true;
      };
      if (size.length !== null && !(await grow(size.length - size.replaces))) throw overQuota();
      const scope = await scopeOf(user);
      return {
        limit: (body) => meteredBody(body, { grow: (total) => grow(total - size.replaces - reserved), over: overQuota }),
        release: async (kept) => {
          const bytes = reserved;
          reserved = 0;
          if (bytes > 0) await deps.ephemeral.add(reservedKey(user), -bytes);
          if (kept) deps.walk.grew(scope, bytes);
        },
      };
    },
  };
}

/** The 507 of a write beyond the quota (api.md §14's body, beyond.md §6). */
export function overQuota(): AppError {
  return new AppError('insufficient_storage', 'the quota does not leave room for this');
}

export type QuotaService = ReturnType<typeof createQuotaService>;
