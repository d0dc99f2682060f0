import { defaultAssets } from '../lib/assets';

/**
 * The common-password list (api.md §8.3) as the executable carries it: an asset of the 100,000
 * passwords sorted bytewise, one per line, searched in place. Inside the executable the asset maps
 * the binary itself, so the list costs no heap at all; it used to be an 880 KB string inside the
 * bundle's source (held by V8 for good) and, once used, a Set of 100,000 strings.
 */
export const COMMON_PASSWORDS_ASSET = 'common-passwords.txt';

const NEWLINE = 0x0a;

/** The list's text (one password per line) sorted bytewise, as the asset stores it. */
export function sortedList(text: string): Buffer {
  const lines = text.split('\n').map((line) => Buffer.from(line, 'utf8'));
  lines.sort((a, b) => Buffer.compare(a, b));
  return Buffer.from(lines.map((line) => line.toString('utf8')).join('\n'), 'utf8');
}

/** True when `word` is one of the lines of `sorted` (binary search, no copy). */
export function hasLine(sorted: Buffer, word: string): boolean {
  const target = Buffer.from(word, 'utf8');
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const start = sorted.lastIndexOf(NEWLINE, mid - 1) + 1;
    const newline = sorted.indexOf(NEWLINE, start);
    const end = newline < 0 ? sorted.length : newline;
    const order = Buffer.compare(sorted.subarray(start, end), target);
    if (order === 0) return true;
    if (order < 0) lo = end + 1;
    else hi = start;
  }
  return false;
}

/** The sorted list: the asset when there is one, else sorted from the JSON of the source tree. */
export async function loadCommonPasswords(): Promise<Buffer> {
  const asset = defaultAssets().read(COMMON_PASSWORDS_ASSET);
  if (asset) return asset;
  return sortedList((await import('./common-passwords.json')).default.passwords);
}
