import { randomBytes } from 'node:crypto';
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError } from '../../errors';
import { fsError } from '../../fs/fs-error';
import { baseName, cleanPath } from '../../fs/paths';
import type { PathGate, Target } from '../../fs/scope';
import { makeItemDir, moveEntry, removeItemDir, trashItemDir, trashRootOf, treeBytes, type RenameFn } from '../../fs/trash-bin';
import { isWithin } from '../../lib/within';
import type { TrashRecord, UserRecord } from '../../state/schema';
import type { TrashDeps } from './context';

/** Sizes of trashed trees still being counted by this instance (a per-instance list of work). */
export interface Sizing {
  pending: Set<Promise<void>>;
  /** The rename call (tests of the cross-filesystem fallback replace it). */
  rename?: RenameFn;
}

/** Removes the owner's share links of `path` and below it: a trashed item's links go with it. */
async function dropShares(deps: TrashDeps, user: UserRecord, path: string): Promise<void> {
  const below = (p: string): boolean => isWithin(path, cleanPath(p));
  if (!deps.store.data().shares.some((s) => s.userID === user.id && below(s.path))) return;
  await deps.store.update((db) => {
    db.shares = db.shares.filter((s) => s.userID !== user.id || !below(s.path));
  });
}

/** Counts a trashed tree after the answer: the move stays one rename, the bytes follow. */
function sizeLater(deps: TrashDeps, sizing: Sizing, item: { record: TrashRecord; at: string }): void {
  const { record, at } = item;
  const job = treeBytes(at)
    .then((size) => deps.records.setSize(record.userId, record.id, size))
    .catch(deps.report)
    .finally(() => sizing.pending.delete(job));
  sizing.pending.add(job);
}

/**
 * Moves a gated path into `user`'s trash (beyond.md §3) and records it: one rename on the same
 * filesystem. The caller has checked permissions and rules and runs the `delete` hooks around it
 * (DELETE /api/resources and WebDAV DELETE both do).
 */
export async function moveToTrash(deps: TrashDeps, sizing: Sizing, op: { user: UserRecord; gate: PathGate; target: Target }): Promise<TrashRecord> {
  const { user, gate, target } = op;
  if (target.path === '/' || gate.guards(target.real) || gate.guards(target.resolved)) throw new AppError('forbidden');
  const own = await lstat(target.real).catch((err: unknown) => {
    throw fsError(err);
  });
  const id = randomBytes(8).toString('hex');
  const dir = trashItemDir(trashRootOf(deps.config.root), user.id, id);
  const name = baseName(target.path);
  await makeItemDir(dir);
  try {
    await moveEntry(target.real, join(dir, name), sizing.rename);
  } catch (err) {
    await removeItemDir(dir);
    throw err;
  }
  const isDir = own.isDirectory();
  const record: TrashRecord = { id, userId: user.id, name, path: target.path, isDir, size: own.isFile() ? own.size : 0, deleted: deps.now() };
  await deps.records.add(record);
  await dropShares(deps, user, target.path).catch(deps.report);
  await deps.previews?.invalidate(target.lexical);
  if (isDir) sizeLater(deps, sizing, { record, at: join(dir, name) });
  return record;
}
