import type { BigIntStats } from 'node:fs';

/** Go `FileMode` type bits (api.md §1.7). */
const GO = {
  dir: 2 ** 31,
  symlink: 2 ** 27,
  device: 2 ** 26,
  pipe: 2 ** 25,
  socket: 2 ** 24,
  setuid: 2 ** 23,
  setgid: 2 ** 22,
  charDevice: 2 ** 21,
  sticky: 2 ** 20,
} as const;

function typeBits(s: BigIntStats): number {
  if (s.isDirectory()) return GO.dir;
  if (s.isSymbolicLink()) return GO.symlink;
  if (s.isFIFO()) return GO.pipe;
  if (s.isSocket()) return GO.socket;
  if (s.isBlockDevice()) return GO.device;
  if (s.isCharacterDevice()) return GO.device + GO.charDevice;
  return 0;
}

/** The Go `FileMode` of a stat result as an unsigned 32-bit number (a 0755 directory -> 2147484141). */
export function goFileMode(s: BigIntStats): number {
  const mode = Number(s.mode);
  let bits = (mode & 0o777) + typeBits(s);
  // POSIX S_ISUID, S_ISGID, S_ISVTX (not exported by node:fs constants on every platform).
  if (mode & 0o4000) bits += GO.setuid;
  if (mode & 0o2000) bits += GO.setgid;
  if (mode & 0o1000) bits += GO.sticky;
  return bits;
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

function offsetOf(date: Date): string {
  const minutes = -date.getTimezoneOffset();
  if (minutes === 0) return 'Z';
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? '-' : '+'}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

const NS_PER_SECOND = 1_000_000_000n;

/** The last second rfc3339Nano wrote, as `YYYY-MM-DDTHH:MM:SS`, and its offset: a folder's files often share one. */
let lastSecond = Number.NaN;
let lastStamp = '';
let lastOffset = '';

/** The nanoseconds as RFC 3339's fraction: `.5` for 500000000, '' for none. */
function fractionOf(nanos: number): string {
  if (nanos === 0) return '';
  const digits = String(nanos).padStart(9, '0');
  let end = 9;
  while (digits.charCodeAt(end - 1) === 48) end--;
  return `.${digits.slice(0, end)}`;
}

/**
 * RFC 3339 in the server's local offset with the nanosecond fraction, trailing zeros dropped, like
 * Go's time.RFC3339Nano (api.md §1.7): `2024-05-01T12:00:00.123456789+02:00`, `...Z` for UTC.
 * A listing formats one per item: the date part is remembered for the last second seen.
 */
export function rfc3339Nano(epochNs: bigint): string {
  // Both truncate toward zero: a time before 1970 with a fraction is one second less, plus nanos.
  let nanos = Number(epochNs % NS_PER_SECOND);
  let seconds = Number(epochNs / NS_PER_SECOND);
  if (nanos < 0) {
    nanos += 1_000_000_000;
    seconds -= 1;
  }
  if (seconds !== lastSecond) {
    const date = new Date(seconds * 1000);
    lastStamp = `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
    lastOffset = offsetOf(date);
    lastSecond = seconds;
  }
  return `${lastStamp}${fractionOf(nanos)}${lastOffset}`;
}

/** The upload/save ETag of api.md §3.6: `"<hex mtime ns><hex size>"`. */
export function etagOf(s: BigIntStats): string {
  return `"${s.mtimeNs.toString(16)}${s.size.toString(16)}"`;
}
