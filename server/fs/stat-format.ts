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

/**
 * RFC 3339 in the server's local offset with the nanosecond fraction, trailing zeros dropped, like
 * Go's time.RFC3339Nano (api.md §1.7): `2024-05-01T12:00:00.123456789+02:00`, `...Z` for UTC.
 */
export function rfc3339Nano(epochNs: bigint): string {
  const seconds = epochNs >= 0n ? epochNs / 1_000_000_000n : -((-epochNs + 999_999_999n) / 1_000_000_000n);
  const nanos = Number(epochNs - seconds * 1_000_000_000n);
  const date = new Date(Number(seconds) * 1000);
  const day = `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  const time = `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
  const fraction = nanos === 0 ? '' : `.${pad(nanos, 9).replace(/0+$/, '')}`;
  return `${day}T${time}${fraction}${offsetOf(date)}`;
}

/** The upload/save ETag of api.md §3.6: `"<hex mtime ns><hex size>"`. */
export function etagOf(s: BigIntStats): string {
  return `"${s.mtimeNs.toString(16)}${s.size.toString(16)}"`;
}
