import type { IncomingHttpHeaders } from 'node:http';

/** What a response is validated against: its entity tag and its modification time. */
export interface Validators {
  etag: string;
  mtimeMs: number;
}

/** The result of RFC 9110 §13.2.2 evaluation: serve (honouring `range` if any), 304 or 412. */
export type Precondition = { kind: 'serve'; range: string | undefined } | { kind: 'not-modified' } | { kind: 'failed' };

type Cond = 'none' | 'true' | 'false';

/** Splits the next entity tag off a list (Go's scanETag); '' when the list is malformed. */
function scanEtag(text: string): [string, string] {
  const s = text.trim();
  const start = s.startsWith('W/') ? 2 : 0;
  if (s.length - start < 2 || s[start] !== '"') return ['', ''];
  for (let i = start + 1; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22) return [s.slice(0, i + 1), s.slice(i + 1)];
    if (!(c === 0x21 || c >= 0x23)) return ['', ''];
  }
  return ['', ''];
}

const strongMatch = (a: string, b: string): boolean => a === b && a.startsWith('"');
const weakMatch = (a: string, b: string): boolean => a.replace(/^W\//, '') === b.replace(/^W\//, '');

/** Whether an If-Match / If-None-Match list holds `*` or a tag matching `etag`. */
function listMatches(header: string, etag: string, match: (a: string, b: string) => boolean): boolean {
  let rest = header;
  for (;;) {
    rest = rest.trim();
    if (rest === '') return false;
    if (rest.startsWith(',')) {
      rest = rest.slice(1);
      continue;
    }
    if (rest.startsWith('*')) return true;
    const [tag, remain] = scanEtag(rest);
    if (tag === '') return false;
    if (match(tag, etag)) return true;
    rest = remain;
  }
}

function header(headers: IncomingHttpHeaders, name: string): string {
  const value = headers[name];
  return (Array.isArray(value) ? value.join(',') : value) ?? '';
}

/**
 * HTTP dates have one-second resolution, so the file's time is compared truncated to seconds.
 * A file dated at the Unix epoch has no usable date (Go's isZeroTime), so date headers are ignored.
 */
function compareDate(text: string, mtimeMs: number): number | undefined {
  const date = Date.parse(text);
  if (text === '' || Number.isNaN(date) || mtimeMs === 0) return undefined;
  return Math.floor(mtimeMs / 1000) * 1000 - date;
}

function ifMatch(headers: IncomingHttpHeaders, v: Validators): Cond {
  const value = header(headers, 'if-match');
  if (value === '') {
    const diff = compareDate(header(headers, 'if-unmodified-since'), v.mtimeMs);
    if (diff === undefined) return 'none';
    return diff <= 0 ? 'true' : 'false';
  }
  return listMatches(value, v.etag, strongMatch) ? 'true' : 'false';
}

function ifNoneMatch(headers: IncomingHttpHeaders, v: Validators): Cond {
  const value = header(headers, 'if-none-match');
  if (value === '') {
    const diff = compareDate(header(headers, 'if-modified-since'), v.mtimeMs);
    if (diff === undefined) return 'none';
    return diff <= 0 ? 'false' : 'true';
  }
  return listMatches(value, v.etag, weakMatch) ? 'false' : 'true';
}

/** If-Range: a strong tag must match exactly, a date must equal the file's (in whole seconds). */
function ifRange(value: string, v: Validators): boolean {
  const [tag] = scanEtag(value);
  if (tag !== '') return strongMatch(tag, v.etag);
  const date = Date.parse(value);
  return !Number.isNaN(date) && Math.floor(date / 1000) === Math.floor(v.mtimeMs / 1000);
}

/**
 * Evaluates the conditional headers of a GET or HEAD in the order of RFC 9110 §13.2.2 (as Go's
 * ServeContent does): If-Match / If-Unmodified-Since fail with 412; If-None-Match /
 * If-Modified-Since answer 304; an If-Range that does not hold drops the Range header.
 */
export function checkPreconditions(headers: IncomingHttpHeaders, v: Validators): Precondition {
  if (ifMatch(headers, v) === 'false') return { kind: 'failed' };
  if (ifNoneMatch(headers, v) === 'false') return { kind: 'not-modified' };
  const range = header(headers, 'range');
  if (range === '') return { kind: 'serve', range: undefined };
  const condition = header(headers, 'if-range');
  if (condition !== '' && !ifRange(condition, v)) return { kind: 'serve', range: undefined };
  return { kind: 'serve', range };
}
