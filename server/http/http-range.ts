import { AppError } from '../errors';

/** One satisfiable byte range of a file: `length` bytes from `start`. */
export interface ByteRange {
  start: number;
  length: number;
}

type Parsed = { kind: 'ranges'; ranges: ByteRange[] } | { kind: 'invalid' } | { kind: 'no-overlap' };

const DIGITS = /^\d+$/;

function toInt(text: string): number | undefined {
  if (!DIGITS.test(text)) return undefined;
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : undefined;
}

type Spec = ByteRange | 'invalid' | 'no-overlap';

/** One `first-last` or `-suffix` spec against a file of `size` bytes (RFC 9110 §14.1.2). */
function parseSpec(spec: string, size: number): Spec {
  const dash = spec.indexOf('-');
  if (dash < 0) return 'invalid';
  const first = spec.slice(0, dash).trim();
  const last = spec.slice(dash + 1).trim();
  if (first === '') {
    const suffix = toInt(last);
    if (suffix === undefined) return 'invalid';
    // A zero-length suffix selects nothing; a longer one than the file selects all of it.
    if (suffix === 0) return 'no-overlap';
    const start = Math.max(0, size - suffix);
    return { start, length: size - start };
  }
  const start = toInt(first);
  if (start === undefined) return 'invalid';
  if (start >= size) return 'no-overlap';
  if (last === '') return { start, length: size - start };
  const end = toInt(last);
  if (end === undefined || end < start) return 'invalid';
  return { start, length: Math.min(end, size - 1) - start + 1 };
}

/** Parses a Range header the way Go's net/http does (only `bytes=`, empty list items ignored). */
export function parseRange(header: string, size: number): Parsed {
  if (!header.startsWith('bytes=')) return { kind: 'invalid' };
  const ranges: ByteRange[] = [];
  let noOverlap = false;
  for (const item of header.slice('bytes='.length).split(',')) {
    const spec = item.trim();
    if (spec === '') continue;
    const parsed = parseSpec(spec, size);
    if (parsed === 'invalid') return { kind: 'invalid' };
    if (parsed === 'no-overlap') noOverlap = true;
    else ranges.push(parsed);
  }
  if (noOverlap && ranges.length === 0) return { kind: 'no-overlap' };
  return { kind: 'ranges', ranges };
}

/**
 * The ranges to serve for a Range header (undefined or empty = the whole file), as Go's
 * ServeContent decides: an unsatisfiable request on an empty file gets the (empty) file, ranges
 * adding up to more than the file are ignored (an attack or a confused client), a malformed or
 * unsatisfiable header answers 416 (with `Content-Range: bytes *\/size` for the latter).
 */
export function selectRanges(header: string | undefined, size: number): ByteRange[] {
  if (header === undefined || header === '') return [];
  const parsed = parseRange(header, size);
  if (parsed.kind === 'invalid') throw new AppError('range_not_satisfiable');
  if (parsed.kind === 'no-overlap') {
    if (size === 0) return [];
    throw new AppError('range_not_satisfiable', undefined, { 'content-range': `bytes */${size}` });
  }
  const total = parsed.ranges.reduce((sum, range) => sum + range.length, 0);
  return total > size ? [] : parsed.ranges;
}

/** The Content-Range value of one range of a file of `size` bytes. */
export function contentRange(range: ByteRange, size: number): string {
  return `bytes ${range.start}-${range.start + range.length - 1}/${size}`;
}
