import { join } from 'node:path';
import type { TrashItem, TrashRestoreQuery } from '../../contract/trash';
import { AppError } from '../../errors';
import { identityOf } from '../../fs/info';
import { baseName, joinPath, numberedName, parentPath } from '../../fs/paths';
import type { PathGate, Target } from '../../fs/scope';
import { moveEntry, relativeEntries, removeItemDir, trashItemDir, trashRootOf } from '../../fs/trash-bin';
import { lstatOrNull, makeParent, removeTree } from '../../fs/write';
import { hookContext } from '../../hooks/context';
import { createModes } from '../../state/modes';
import type { TrashRecord, UserRecord } from '../../state/schema';
import { checkedId, itemView, ownerOf, type TrashDeps } from './context';
import type { Sizing } from './move';

/** `name(1).ext`, `name(2).ext`, ...: the first free name beside `dst`, as PATCH's rename=true. */
async function freeName(gate: PathGate, dst: Target): Promise<Target> {
  const dir = parentPath(dst.path);
  for (let n = 1; ; n++) {
    const next = await gate.resolve(joinPath(dir, numberedName(baseName(dst.path), n)), 'write');
    if ((await identityOf(next)) === null) return next;
  }
}

/** With rules, every path the restored tree will have must be allowed (api.md §6.3), else 403. */
async function checkRestoredNames(gate: PathGate, dst: Target, from: string): Promise<void> {
  if (!gate.hasRules) return;
  if (!gate.descendantAllows(dst.path)) throw new AppError('forbidden');
  for (const rel of await relativeEntries(from)) {
    if (!gate.descendantAllows(joinPath(dst.path, rel))) throw new AppError('forbidden');
  }
}

/** Where the item goes: `?destination=` or where it was; an existing target per override/rename. */
async function destinationOf(caller: UserRecord, gate: PathGate, req: { record: TrashRecord; q: TrashRestoreQuery }): Promise<Target> {
  const { record, q } = req;
  const dst = await gate.resolve(q.destination ?? record.path, 'write');
  if (dst.path === '/') throw new AppError('forbidden');
  if ((await identityOf(dst)) === null) return dst;
  if (q.rename === 'true') return freeName(gate, dst);
  if (q.override !== 'true') throw new AppError('exists');
  if (!caller.perm.modify) throw new AppError('forbidden');
  await removeTree(dst, (p) => gate.guards(p));
  return dst;
}

/**
 * POST /api/trash/{id}/restore (beyond.md §3): puts an item back where it was in its owner's
 * scope, or at `?destination=`, between the `upload` hooks (it appears there as an upload would).
 * Needs `create`; an existing target is 409 unless override=true (needs `modify`) or rename=true.
 */
export async function restoreItem(deps: TrashDeps, sizing: Sizing, req: { caller: UserRecord; id: string; query: TrashRestoreQuery }): Promise<TrashItem> {
  const { caller, query } = req;
  const owner = ownerOf(deps, caller, query.user);
  if (!caller.perm.create) throw new AppError('forbidden');
  const id = checkedId(req.id);
  return deps.ephemeral.withLock(`trash:item:${id}`, async () => {
    const record = await deps.records.get(owner.id, id);
    if (!record) throw new AppError('not_found');
    const dir = trashItemDir(trashRootOf(deps.config.root), owner.id, id);
    const from = join(dir, record.name);
    if ((await lstatOrNull(from, { lenient: true })) === null) throw new AppError('not_found');
    const gate = await deps.gates.forUser(owner, deps.store.data().settings);
    await checkRestoredNames(gate, await gate.resolve(query.destination ?? record.path, 'write'), from);
    const dst = await destinationOf(caller, gate, { record, q: query });
    await deps.previews?.invalidate(dst.lexical);
    await deps.hooks.around('upload', hookContext(gate, owner, { file: dst }), async () => {
      await makeParent(dst.real, createModes(deps.store.data().settings).dirMode);
      await moveEntry(from, dst.real, sizing.rename);
    });
    await deps.records.remove(owner.id, id);
    await removeItemDir(dir);
    return itemView(deps, { ...record, path: dst.path, name: baseName(dst.path) });
  });
}
