import { Type, type Static } from '@sinclair/typebox';

/** Wire shapes of /api/trash (beyond.md §3). */
export const TrashItemSchema = Type.Object({
  id: Type.String(),
  /** The item's name (what it was called where it was). */
  name: Type.String(),
  /** Where it was, in the owner's scope. */
  path: Type.String(),
  isDir: Type.Boolean(),
  /** Bytes of the file or tree. */
  size: Type.Number(),
  /** When it was deleted (RFC 3339). */
  deleted: Type.String(),
  /** When the purge removes it (RFC 3339): deleted + the current `trash.days`. */
  expires: Type.String(),
});
export type TrashItem = Static<typeof TrashItemSchema>;

export const TrashListSchema = Type.Array(TrashItemSchema);

/** `?user=<id>`: an admin acting on another user's trash. */
export const TrashQuerySchema = Type.Object({
  user: Type.Optional(Type.String({ pattern: '^[0-9]{1,10}$' })),
});
export type TrashQuery = Static<typeof TrashQuerySchema>;

/** POST /api/trash/{id}/restore: where to (default: where it was) and what to do on a conflict. */
export const TrashRestoreQuerySchema = Type.Object({
  user: Type.Optional(Type.String({ pattern: '^[0-9]{1,10}$' })),
  destination: Type.Optional(Type.String()),
  override: Type.Optional(Type.String()),
  rename: Type.Optional(Type.String()),
});
export type TrashRestoreQuery = Static<typeof TrashRestoreQuerySchema>;

/** The global settings' recycle bin section (GET/PUT /api/settings `trash`). */
export const TrashSettingsSchema = Type.Object({
  enabled: Type.Boolean(),
  days: Type.Integer({ minimum: 1, maximum: 3650 }),
});
export type TrashSettingsView = Static<typeof TrashSettingsSchema>;
