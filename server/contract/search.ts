import { Type, type Static } from '@sinclair/typebox';

/** GET /api/search{p}?query= (api.md §3.14). */
export const SearchQuerySchema = Type.Object({ query: Type.Optional(Type.String()) });

/**
 * One line of the search stream: a match, relative to the search root without a leading slash.
 * The stream also carries one empty line as a keep-alive 5 seconds into a long search.
 */
export const SearchResultSchema = Type.Object({ dir: Type.Boolean(), path: Type.String() });

export type SearchResult = Static<typeof SearchResultSchema>;
