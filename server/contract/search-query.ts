// The search query grammar of api.md §3.14, shared by the server's matcher (server/search/query.ts)
// and the web app, which marks the matched part of each result (web/features/search/highlight.ts).
/** A media class a `type:` condition can ask for, matched on the MIME type of the extension. */
export type MediaClass = 'image' | 'audio' | 'video';

/** A `type:` condition: a media class, or an exact (case-sensitive) extension without its dot. */
export type TypeCondition = { media: MediaClass } | { extension: string };

/** A parsed search query (api.md §3.14). */
export interface SearchQuery {
  caseSensitive: boolean;
  /** OR-ed; none means every type matches. */
  conditions: TypeCondition[];
  /** OR-ed substrings of the base name, lower-cased unless case-sensitive; '' matches everything. */
  terms: string[];
}

// Go's \w is ASCII-only, as JavaScript's is without the `u` flag.
const TYPE_TOKEN = /type:(\w+)/g;

const MEDIA: Readonly<Record<string, MediaClass>> = { image: 'image', audio: 'audio', music: 'audio', video: 'video' };

function condition(word: string): TypeCondition {
  const media = MEDIA[word];
  return media ? { media } : { extension: word };
}

/**
 * Parses the query grammar of filebrowser's search: `case:sensitive` anywhere switches case
 * sensitivity (both `case:` tokens are removed), every `type:<word>` adds an OR-ed condition,
 * a remaining text in double quotes is one literal term, otherwise it is split on single spaces.
 */
export function parseSearchQuery(query: string): SearchQuery {
  const caseSensitive = query.includes('case:sensitive');
  const withoutCase = query.replaceAll('case:insensitive', '').replaceAll('case:sensitive', '');
  const conditions = [...withoutCase.matchAll(TYPE_TOKEN)].map((m) => condition(m[1] ?? ''));
  let text = withoutCase.replace(TYPE_TOKEN, '').trim();
  if (!caseSensitive) text = text.toLowerCase();
  if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) {
    return { caseSensitive, conditions, terms: [text.slice(1, -1)] };
  }
  return { caseSensitive, conditions, terms: text.split(' ') };
}
