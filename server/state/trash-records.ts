import type { Settings, TrashRecord, TrashSettings } from './schema';
import type { Store } from './store';

/** The recycle bin's defaults (beyond.md §3): on, 30 days. */
export const TRASH_DEFAULTS: Readonly<TrashSettings> = { enabled: true, days: 30 };

/** The trash settings in force: the stored ones, or the defaults for a file written before them. */
export function trashSettingsOf(settings: Readonly<Settings>): TrashSettings {
  const t = settings.trash;
  return t ? { enabled: t.enabled, days: t.days } : { ...TRASH_DEFAULTS };
}

/**
 * The recycle bin's records, what must survive a restart and every instance must agree on
 * (beyond.md §10). Backed by the state store here; S1 backs it with a PostgreSQL table.
 */
export interface TrashRecords {
  /** Adds a record (after its bytes are in the trash). */
  add(record: TrashRecord): Promise<void>;
  /** One user's records, newest first. */
  list(userId: number): Promise<TrashRecord[]>;
  /** The record `id` of `userId`, if any. */
  get(userId: number, id: string): Promise<TrashRecord | undefined>;
  /** Removes a record; returns it, or undefined when it was already gone (another request won). */
  remove(userId: number, id: string): Promise<TrashRecord | undefined>;
  /** Sets the size of a tree, counted after the move. */
  setSize(userId: number, id: string, size: number): Promise<void>;
  /** Every record, every user (for the purge). */
  all(): Promise<TrashRecord[]>;
  /** The sum of a user's record sizes (quotas count them, beyond.md §6). */
  bytes(userId: number): Promise<number>;
}

function newestFirst(a: TrashRecord, b: TrashRecord): number {
  return b.deleted - a.deleted || (a.id < b.id ? -1 : 1);
}

/** TrashRecords in the state store (`Database.trash`); every change is one `update`. */
export function storeTrashRecords(store: Store): TrashRecords {
  const records = (): readonly TrashRecord[] => store.data().trash ?? [];
  return {
    async add(record) {
      await store.update((db) => {
        (db.trash ??= []).push({ ...record });
      });
    },
    list: (userId) => Promise.resolve(records().filter((r) => r.userId === userId).map((r) => ({ ...r })).sort(newestFirst)),
    get: (userId, id) => {
      const r = records().find((x) => x.userId === userId && x.id === id);
      return Promise.resolve(r && { ...r });
    },
    remove: (userId, id) =>
      store.update((db) => {
        const list = db.trash ?? [];
        const at = list.findIndex((x) => x.userId === userId && x.id === id);
        if (at < 0) return undefined;
        const [gone] = list.splice(at, 1);
        return gone && { ...gone };
      }),
    async setSize(userId, id, size) {
      await store.update((db) => {
        const r = db.trash?.find((x) => x.userId === userId && x.id === id);
        if (r) r.size = size;
      });
    },
    all: () => Promise.resolve(records().map((r) => ({ ...r }))),
    bytes: (userId) => Promise.resolve(trashBytesOf(store, userId)),
  };
}

/** The bytes in a user's recycle bin, from the records (quotas, beyond.md §6, count them). */
export function trashBytesOf(store: Store, userId: number): number {
  return (store.data().trash ?? []).reduce((sum, r) => (r.userId === userId ? sum + r.size : sum), 0);
}
