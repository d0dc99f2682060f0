import { parseSearchQuery } from '@contract/search-query';

/** A run of a result's path: matched by the query (shown in a <mark>) or not. */
export interface Piece {
  text: string;
  match: boolean;
}

interface Terms {
  caseSensitive: boolean;
  /** Non-empty substrings to mark, lower-cased unless case-sensitive. */
  terms: string[];
}

/** The terms of a search query that a result's name is matched against (api.md §3.14). */
export function termsOf(query: string): Terms {
  const { caseSensitive, terms } = parseSearchQuery(query);
  // An empty term matches every name: there is nothing in particular to mark for it.
  return { caseSensitive, terms: terms.filter((term) => term !== '') };
}

/**
 * The name as the server compares it, with where each of its code units came from in the name:
 * lower-casing may lengthen a character (İ becomes i and a combining dot), so a match in the
 * lowered name is mapped back to whole characters of the original.
 */
function comparable(name: string, caseSensitive: boolean): { subject: string; start: number[]; end: number[] } | { subject: string; start: null; end: null } {
  if (caseSensitive) return { subject: name, start: null, end: null };
  const lowered = name.toLowerCase();
  if (lowered.length === name.length) return { subject: lowered, start: null, end: null };
  const start: number[] = [];
  const end: number[] = [];
  let subject = '';
  let at = 0;
  for (const char of name) {
    const low = char.toLowerCase();
    for (let i = 0; i < low.length; i++) {
      start.push(at);
      end.push(at + char.length);
    }
    subject += low;
    at += char.length;
  }
  return { subject, start, end };
}

/** Ranges [from, to) of `name` that contain a term, merged where they touch or overlap. */
export function matchRanges(name: string, query: string): [number, number][] {
  const { caseSensitive, terms } = termsOf(query);
  const { subject, start, end } = comparable(name, caseSensitive);
  const ranges: [number, number][] = [];
  for (const term of terms) {
    for (let i = subject.indexOf(term); i >= 0; i = subject.indexOf(term, i + 1)) {
      const last = i + term.length - 1;
      ranges.push(start ? [start[i] ?? 0, end[last] ?? name.length] : [i, last + 1]);
    }
  }
  ranges.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const range of ranges) {
    const prev = merged.at(-1);
    if (prev && range[0] <= prev[1]) prev[1] = Math.max(prev[1], range[1]);
    else merged.push([range[0], range[1]]);
  }
  return merged;
}

/**
 * Splits a result's path (relative to the search root) into pieces, marking what the query
 * matched: only in the last segment, the base name that the server matched (api.md §3.14).
 */
export function splitMatches(path: string, query: string): Piece[] {
  const slash = path.lastIndexOf('/', path.endsWith('/') ? path.length - 2 : path.length);
  const baseStart = slash + 1;
  const pieces: Piece[] = [];
  const push = (text: string, match: boolean): void => {
    if (text) pieces.push({ text, match });
  };
  push(path.slice(0, baseStart), false);
  const base = path.slice(baseStart);
  let at = 0;
  for (const [from, to] of matchRanges(base, query)) {
    push(base.slice(at, from), false);
    push(base.slice(from, to), true);
    at = to;
  }
  push(base.slice(at), false);
  return pieces;
}
