/**
 * POSIX tar (ustar) headers, with a pax extended header when ustar cannot hold the entry: a name
 * that is not ASCII or does not fit the 100 + 155 byte name and prefix fields, or a size of
 * 8 GiB or more. GNU tar, bsdtar and Python's tarfile all read this form.
 */

export const BLOCK = 512;

/** What a header describes. */
export interface TarHeaderFields {
  /** Entry name without a trailing slash; directories get theirs here. */
  name: string;
  isDir: boolean;
  size: number;
  /** Permission bits. */
  mode: number;
  mtime: Date;
}

const NAME_BYTES = 100;
const PREFIX_BYTES = 155;
// Octal fields hold (length - 1) digits and a NUL.
const MAX_OCTAL_11 = 0o77777777777;
const ZERO_BLOCK = Buffer.alloc(BLOCK);

/** The zero bytes that pad a body of `size` bytes to a whole block. */
export function padding(size: number): Buffer {
  const rest = size % BLOCK;
  return rest === 0 ? ZERO_BLOCK.subarray(0, 0) : ZERO_BLOCK.subarray(0, BLOCK - rest);
}

/** The two zero blocks that end an archive. */
export function endOfArchive(): Buffer {
  return Buffer.alloc(2 * BLOCK);
}

/** Writes `value` as zero-padded octal into the field at `field.offset`, leaving its last byte NUL. */
function writeOctal(block: Buffer, value: number, field: { offset: number; length: number }): void {
  block.write(Math.floor(value).toString(8).padStart(field.length - 1, '0'), field.offset, field.length - 1, 'latin1');
}

interface UstarName {
  name: string;
  prefix: string;
}

/** The name split into ustar's name and prefix fields, or undefined when it does not fit. */
function ustarName(full: string): UstarName | undefined {
  if (full.length <= NAME_BYTES) return { name: full, prefix: '' };
  // Split at a slash so that the prefix holds at most 155 bytes and the name at most 100.
  const trimmed = full.endsWith('/') ? full.slice(0, -1) : full;
  for (let slash = trimmed.indexOf('/'); slash !== -1 && slash <= PREFIX_BYTES; slash = trimmed.indexOf('/', slash + 1)) {
    const name = full.slice(slash + 1);
    if (name.length <= NAME_BYTES && name.length > 0) return { name, prefix: full.slice(0, slash) };
  }
  return undefined;
}

const isAscii = (text: string): boolean => !/[^\x20-\x7e]/.test(text);

/** At most `limit` bytes of a UTF-8 name, cut between characters (the pax header carries the full one). */
function truncatedName(full: string, limit: number): string {
  const bytes = Buffer.from(full, 'utf8');
  if (bytes.length <= limit) return full;
  let end = limit;
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString('utf8');
}

function block(fields: { name: UstarName; type: string; size: number; mode: number; mtime: number }): Buffer {
  const out = Buffer.alloc(BLOCK);
  out.write(fields.name.name, 0, NAME_BYTES, 'utf8');
  writeOctal(out, fields.mode, { offset: 100, length: 8 });
  writeOctal(out, 0, { offset: 108, length: 8 });
  writeOctal(out, 0, { offset: 116, length: 8 });
  writeOctal(out, fields.size, { offset: 124, length: 12 });
  writeOctal(out, fields.mtime, { offset: 136, length: 12 });
  out.write(fields.type, 156, 1, 'latin1');
  out.write('ustar\u000000', 257, 8, 'latin1');
  out.write(fields.name.prefix, 345, PREFIX_BYTES, 'utf8');
  // The checksum is the byte sum with its own field read as eight spaces.
  let sum = 8 * 0x20;
  for (let i = 0; i < BLOCK; i++) sum += out[i] ?? 0;
  out.write(`${sum.toString(8).padStart(6, '0')}\u0000 `, 148, 8, 'latin1');
  return out;
}

/** A pax record: its decimal length counts the whole record, digits included. */
function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`;
  const bodyBytes = Buffer.byteLength(body);
  let length = bodyBytes + 1;
  while (String(length).length + bodyBytes !== length) length = String(length).length + bodyBytes;
  return `${length}${body}`;
}

function paxHeader(records: string, fields: { mode: number; mtime: number }): Buffer[] {
  const data = Buffer.from(records, 'utf8');
  const head = block({ name: { name: 'PaxHeader', prefix: '' }, type: 'x', size: data.length, mode: fields.mode, mtime: fields.mtime });
  return [head, data, padding(data.length)];
}

/** The header blocks of an entry: one ustar block, preceded by a pax header when needed. */
export function tarHeader(entry: TarHeaderFields): Buffer[] {
  const full = entry.isDir ? `${entry.name}/` : entry.name;
  const mtime = Math.min(Math.max(0, Math.floor(entry.mtime.getTime() / 1000)), MAX_OCTAL_11);
  const ustar = isAscii(full) ? ustarName(full) : undefined;
  const bigSize = entry.size > MAX_OCTAL_11;
  const fields = { type: entry.isDir ? '5' : '0', size: bigSize ? 0 : entry.size, mode: entry.mode, mtime };
  if (ustar && !bigSize) return [block({ ...fields, name: ustar })];
  let records = ustar ? '' : paxRecord('path', full);
  if (bigSize) records += paxRecord('size', String(entry.size));
  const fallback = ustar ?? { name: truncatedName(full, NAME_BYTES), prefix: '' };
  return [...paxHeader(records, fields), block({ ...fields, name: fallback })];
}
