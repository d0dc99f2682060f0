import { Type, type Static } from '@sinclair/typebox';

/**
 * Wire shapes of /api/shares, /api/share{p} and /api/public/* (api.md §3.15, §3.16, §4.4).
 * A share as the API shows it never carries its password hash or its download token: the
 * response schemas below are what keeps them from being serialised (api.md §11).
 */
export const ShareKindSchema = Type.Union([Type.Literal('download'), Type.Literal('upload')]);
export type ShareKind = Static<typeof ShareKindSchema>;

export const ShareSchema = Type.Object({
  hash: Type.String(),
  path: Type.String(),
  userID: Type.Integer(),
  /** Unix seconds; 0 = never expires. */
  expire: Type.Number(),
  hasPassword: Type.Boolean(),
  /** beyond.md §2: a download link (filebrowser's kind) or an upload link (a file request). */
  kind: ShareKindSchema,
  /** Downloads allowed; 0 = unlimited (download links only). */
  maxDownloads: Type.Integer(),
  /** Counted downloads so far (each 200 of /api/public/dl). */
  downloads: Type.Integer(),
  /** Files received through an upload link. */
  uploads: Type.Integer(),
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
    /** beyond.md §2: 'download' (default) or 'upload'; checked by the service (400 with the reason). */
    kind: Type.Optional(Type.String()),
    /** beyond.md §2: a whole number >= 0 (0 = unlimited); checked by the service. */
    maxDownloads: Type.Optional(Type.Number()),
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

/**
 * GET /api/public/share/{hash} of an upload link (beyond.md §2): the folder's name and never its
 * contents; `token` (as on a download link) only after the password of a protected link.
 */
export const UploadLinkInfoSchema = Type.Object({
  kind: Type.Literal('upload'),
  name: Type.String(),
  expire: Type.Number(),
  hasPassword: Type.Boolean(),
  token: Type.Optional(Type.String()),
});
export type UploadLinkInfo = Static<typeof UploadLinkInfoSchema>;

/** 201 of POST /api/public/upload/{hash}/{name} and of a public tus creation: the name the file is stored under. */
export const UploadedFileSchema = Type.Object({ name: Type.String() });
export type UploadedFile = Static<typeof UploadedFileSchema>;
