import type { SearchQuery, TypeCondition } from '../contract/search-query';

export { parseSearchQuery, type SearchQuery } from '../contract/search-query';

/** The MIME type of a file name's extension, or '' when unknown. */
export type MimeLookup = (name: string) => string;

/** The extension as Go's filepath.Ext sees it: from the last dot on, so `.bashrc` is one. */
function goExtension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot);
}

function conditionHolds(cond: TypeCondition, name: string, mimeOf: MimeLookup): boolean {
  if ('extension' in cond) return goExtension(name) === `.${cond.extension}`;
  return mimeOf(name).startsWith(`${cond.media}/`);
}

/** A predicate over base names that says whether an entry matches the query. */
export function createNameMatcher(query: SearchQuery, mimeOf: MimeLookup): (name: string) => boolean {
  const { caseSensitive, conditions, terms } = query;
  const anyTerm = terms.includes('');
  return (name) => {
    if (conditions.length > 0 && !conditions.some((cond) => conditionHolds(cond, name, mimeOf))) return false;
    if (anyTerm) return true;
    const subject = caseSensitive ? name : name.toLowerCase();
    return terms.some((term) => subject.includes(term));
  };
}
