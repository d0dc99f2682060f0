import type { TrashItem, TrashRestoreQuery } from '../../contract/trash';
import { AppError } from '../../errors';
import type { PathGate, Target } from '../../fs/scope';
import type { TrashRecord, UserRecord } from '../../state/schema';
import { trashSettingsOf } from '../../state/trash-records';
import { checkedId, itemView, ownerOf, type TrashDeps } from './context';
import { moveToTrash, type Sizing } from './move';
import { discardItem, purgeExpired, schedulePurge } from './purge';
import { restoreItem } from './restore';

export type { TrashDeps } from './context';

/** The recycle bin (beyond.md §3); routes.ts only translates HTTP. */
export function createTrashService(deps: TrashDeps, opts: Pick<Sizing, 'rename'> = {}) {
  const sizing: Sizing = { pending: new Set(), rename: opts.rename };
  // Sizes being counted by this instance are awaited before a listing of it answers.
  const settled = async (): Promise<void> => {
    while (sizing.pending.size > 0) await Promise.all([...sizing.pending]);
  };
  return {
    /** Whether DELETE moves items into the trash (global settings `trash.enabled`). */
    isEnabled: (): boolean => trashSettingsOf(deps.store.data().settings).enabled,
    /**
     * THE entry point of a delete that keeps the item (DELETE /api/resources, WebDAV DELETE):
     * moves a gated path into `user`'s trash by one rename, records it, drops its share links.
     * The caller checks permission and rules and wraps it in `hooks.around('delete', ...)`.
     */
    moveToTrash: (user: UserRecord, gate: PathGate, target: Target): Promise<TrashRecord> => moveToTrash(deps, sizing, { user, gate, target }),
    /** GET /api/trash: the owner's items, newest first. */
    async list(caller: UserRecord, query: { user?: string }): Promise<TrashItem[]> {
      const owner = ownerOf(deps, caller, query.user);
      await settled();
      return (await deps.records.list(owner.id)).map((r) => itemView(deps, r));
    },
    /** POST /api/trash/{id}/restore. */
    restore: (caller: UserRecord, id: string, query: TrashRestoreQuery): Promise<TrashItem> => restoreItem(deps, sizing, { caller, id, query }),
    /** DELETE /api/trash/{id}: deletes one item for ever. */
    async remove(caller: UserRecord, id: string, query: { user?: string }): Promise<void> {
      const owner = ownerOf(deps, caller, query.user);
      const checked = checkedId(id);
      const gone = await deps.ephemeral.withLock(`trash:item:${checked}`, () => discardItem(deps, { userId: owner.id, id: checked }));
      if (!gone) throw new AppError('not_found');
    },
    /** DELETE /api/trash: deletes every item of the owner for ever. */
    async empty(caller: UserRecord, query: { user?: string }): Promise<void> {
      const owner = ownerOf(deps, caller, query.user);
      for (const r of await deps.records.list(owner.id)) {
        await deps.ephemeral.withLock(`trash:item:${r.id}`, () => discardItem(deps, r));
      }
    },
    /** The bytes in a user's trash (quotas count them, beyond.md §6). */
    bytesOf: (userId: number): Promise<number> => deps.records.bytes(userId),
    /** Deletes items older than `trash.days` (and trash of removed users); how many went. */
    purge: (): Promise<number> => purgeExpired(deps),
    /** Purges now and every hour; returns the stop (app-services.ts calls it on close). */
    schedule: (everyMs?: number): (() => void) => schedulePurge(deps, everyMs),
    /** Resolves when the sizes this instance is counting are recorded. */
    settled,
  };
}

export type TrashService = ReturnType<typeof createTrashService>;
