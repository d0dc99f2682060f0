import { Type, type Static } from '@sinclair/typebox';

/**
 * Wire shapes of /api/shares, /api/share{p} and /api/public/* (api.md §3.15, §3.16, §4.4).
 * A share as the API shows it never carries its password hash or its download token: the
 * response schemas below are what keeps them from being serialised (api.md §11).
 */
export const ShareSchema = Type.Object({
  hash: Type.String(),
  path: Type.String(),
  userID: Type.Integer(),
  /** Unix seconds; 0 = never expires. */
  expire: Type.Number(),
  hasPassword: Type.Boolean(),
});
export type Share = Static<typeof ShareSchema>;

export const ShareListSchema = Type.Array(ShareSchema);

/**
 * Body of POST /api/share{p}. `expires` is a string holding a whole number (a JSON number is
 * accepted too); `unit` is seconds, minutes, hours or days (anything else means hours).
 * The UI repeats expires and unit in the query string; the server ignores the query.
 */
export const ShareCreateBodySchema = Type.Union([
  Type.Object({
    password: Type.Optional(Type.String()),
    expires: Type.Optional(Type.String()),
    unit: Type.Optional(Type.String()),
  }),
  Type.Null(),
]);
export type ShareCreateBody = Static<typeof ShareCreateBodySchema>;

/** Query of GET /api/public/share and /api/public/dl: the download token of a password share. */
export const PublicShareQuerySchema = Type.Object({
  token: Type.Optional(Type.String()),
  inline: Type.Optional(Type.String()),
  files: Type.Optional(Type.String()),
  algo: Type.Optional(Type.String()),
});
export type PublicShareQuery = Static<typeof PublicShareQuerySchema>;
