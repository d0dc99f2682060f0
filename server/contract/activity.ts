import { Type, type Static } from '@sinclair/typebox';

/**
 * Wire shapes of GET /api/activity and /api/activity.csv (beyond.md §8). Paths are from the
 * server root. `next` is an opaque cursor: pass it back as `cursor` for the next, older page.
 */
export const ActivityEntrySchema = Type.Object({
  /** ISO 8601 UTC. */
  time: Type.String(),
  /** '' for an anonymous visitor (a public share download). */
  user: Type.String(),
  address: Type.String(),
  action: Type.String(),
  path: Type.String(),
  destination: Type.String(),
  bytes: Type.Number(),
  result: Type.Union([Type.Literal('ok'), Type.Literal('failed')]),
  status: Type.Integer(),
  detail: Type.String(),
});
export type ActivityEntryView = Static<typeof ActivityEntrySchema>;

export const ActivityPageSchema = Type.Object({
  items: Type.Array(ActivityEntrySchema),
  next: Type.Union([Type.String(), Type.Null()]),
});
export type ActivityPageView = Static<typeof ActivityPageSchema>;

/** The filters; `since`/`until` are ISO 8601 dates or times (or epoch milliseconds); `limit` 1..1000. */
export const ActivityQuerySchema = Type.Object({
  user: Type.Optional(Type.String({ maxLength: 256 })),
  action: Type.Optional(Type.String({ maxLength: 64 })),
  path: Type.Optional(Type.String({ maxLength: 4096 })),
  since: Type.Optional(Type.String({ maxLength: 64 })),
  until: Type.Optional(Type.String({ maxLength: 64 })),
  limit: Type.Optional(Type.String({ maxLength: 16 })),
  cursor: Type.Optional(Type.String({ maxLength: 64 })),
});
export type ActivityQuery = Static<typeof ActivityQuerySchema>;
