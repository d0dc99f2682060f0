import { join } from 'node:path';
import { removeItemDir, trashItemDir, trashRootOf, trashUserDirs } from '../../fs/trash-bin';
import type { TrashRecord } from '../../state/schema';
import { expiresAt, type TrashDeps } from './context';

/** One item deleted for ever: the record first (a concurrent restore then finds nothing), then its bytes. */
export async function discardItem(deps: TrashDeps, r: Pick<TrashRecord, 'userId' | 'id'>): Promise<boolean> {
  const gone = await deps.records.remove(r.userId, r.id);
  await removeItemDir(trashItemDir(trashRootOf(deps.config.root), r.userId, r.id));
  return gone !== undefined;
}

/**
 * The purge (beyond.md §3): items older than `trash.days`, and the trash of users that no longer
 * exist, are deleted for ever. One instance at a time (a shared lock); returns how many items went.
 */
export async function purgeExpired(deps: TrashDeps): Promise<number> {
  return deps.ephemeral.withLock('trash:purge', async () => {
    const now = deps.now();
    const users = new Set(deps.store.data().users.map((u) => u.id));
    let purged = 0;
    for (const r of await deps.records.all()) {
      if (users.has(r.userId) && expiresAt(deps, r.deleted) > now) continue;
      await deps.ephemeral.withLock(`trash:item:${r.id}`, async () => {
        if (await discardItem(deps, r)) purged++;
      });
    }
    const root = trashRootOf(deps.config.root);
    for (const id of await trashUserDirs(root)) {
      if (!users.has(id)) await removeItemDir(join(root, String(id)));
    }
    return purged;
  });
}

/** Runs the purge now and every hour until the returned stop is called (with the app). */
export function schedulePurge(deps: TrashDeps, everyMs = 60 * 60 * 1000): () => void {
  const run = (): void => {
    purgeExpired(deps).catch(deps.report);
  };
  run();
  const timer = setInterval(run, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
