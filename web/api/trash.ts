import type { TrashItem } from '@contract/trash';
import { apiPaths } from '../paths';
import { exchange, fetchJson } from './http';

/** GET /api/trash: the signed-in user's deleted items, newest first. */
export async function listTrash(): Promise<TrashItem[]> {
  return fetchJson<TrashItem[]>(apiPaths.trash);
}

/** POST /api/trash/{id}/restore: back where it was; an existing item there is 409 unless replaced or renamed. */
export async function restoreTrashItem(id: string, conflict: { override?: boolean; rename?: boolean } = {}): Promise<TrashItem> {
  return fetchJson<TrashItem>(apiPaths.trashRestore(id, conflict), { method: 'POST' });
}

/** DELETE /api/trash/{id}: deletes one item for ever. */
export async function deleteTrashItem(id: string): Promise<void> {
  await exchange(apiPaths.trashItem(id), { method: 'DELETE' });
}

/** DELETE /api/trash: empties the trash. */
export async function emptyTrash(): Promise<void> {
  await exchange(apiPaths.trash, { method: 'DELETE' });
}
