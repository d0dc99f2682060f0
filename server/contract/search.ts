import { Type, type Static } from '@sinclair/typebox';

/** GET /api/search{p}?query= (api.md §3.14). */
export const SearchQuerySchema = Type.Object({
  query: Type.Optional(Type.String()),
  /** filemgr's addition: `details=1` adds each match's size and time to its line (the web app's results show them). */
  details: Type.Optional(Type.String()),
});

/**
 * One line of the search stream: a match, relative to the search root without a leading slash.
 * The stream also carries one empty line as a keep-alive 5 seconds into a long search.
 */
export const SearchResultSchema = Type.Object({
  dir: Type.Boolean(),
  path: Type.String(),
  /** With `details=1` only (api.md's line stays `{dir, path}` without it): bytes, and the ISO time modified. */
  size: Type.Optional(Type.Number()),
  modified: Type.Optional(Type.String()),
});

export type SearchResult = Static<typeof SearchResultSchema>;
