import { Type, type Static } from '@sinclair/typebox';

/**
 * GET /api/raw{p} (api.md §3.11): `inline=true` serves a file inline; for a directory, `files`
 * selects members (comma-separated, each URL-encoded once more) and `algo` names the archive
 * format (zip, tar, targz, tarbz2, tarxz, tarlz4, tarsz, tarbr, tarzst; default zip).
 */
export const RawQuerySchema = Type.Object({
  inline: Type.Optional(Type.String()),
  files: Type.Optional(Type.String()),
  algo: Type.Optional(Type.String()),
});

export type RawQuery = Static<typeof RawQuerySchema>;
