import type { ServerConfig } from '../../config';
import type { TrashItem } from '../../contract/trash';
import { AppError } from '../../errors';
import type { GateFactory } from '../../fs/gates';
import type { HookRunner } from '../../hooks/hooks';
import type { Ephemeral } from '../../state/ephemeral';
import type { TrashRecord, UserRecord } from '../../state/schema';
import type { Store } from '../../state/store';
import { trashSettingsOf, type TrashRecords } from '../../state/trash-records';

/** What the trash service needs; app-services.ts composes it. */
export interface TrashDeps {
  store: Store;
  config: Pick<ServerConfig, 'root'>;
  gates: GateFactory;
  hooks: HookRunner;
  /** Locks shared by every instance (beyond.md §10): the purge, one item at a time. */
  ephemeral: Ephemeral;
  /** The records; default the state store's (S1 passes PostgreSQL's). */
  records: TrashRecords;
  /** Drops cached previews of a real path. */
  previews?: { invalidate(realPath: string): Promise<void> };
  /** Milliseconds since the epoch (a fake clock in tests). */
  now: () => number;
  /** Reports a failure of work done after the answer (sizing, the hourly purge). */
  report: (err: unknown) => void;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** When an item deleted at `deleted` is purged, with the days in force now. */
export function expiresAt(deps: Pick<TrashDeps, 'store'>, deleted: number): number {
  return deleted + trashSettingsOf(deps.store.data().settings).days * DAY_MS;
}

/** The wire view of a record. */
export function itemView(deps: Pick<TrashDeps, 'store'>, r: TrashRecord): TrashItem {
  return { id: r.id, name: r.name, path: r.path, isDir: r.isDir, size: r.size, deleted: new Date(r.deleted).toISOString(), expires: new Date(expiresAt(deps, r.deleted)).toISOString() };
}

/** A record id as the trash makes them; anything else names no item (and never a path). */
export function checkedId(raw: string): string {
  if (!/^[0-9a-f]{16}$/.test(raw)) throw new AppError('not_found');
  return raw;
}

/**
 * Whose trash a request is about: the caller's, or with `?user=<id>` another user's for an admin
 * (beyond.md §3). Another user's trash is 403 to a non-admin; an unknown user is 404.
 */
export function ownerOf(deps: Pick<TrashDeps, 'store'>, caller: UserRecord, user: string | undefined): UserRecord {
  if (user === undefined || Number(user) === caller.id) return caller;
  if (!caller.perm.admin) throw new AppError('forbidden');
  const owner = deps.store.data().users.find((u) => u.id === Number(user));
  if (!owner) throw new AppError('not_found');
  return structuredClone(owner);
}
