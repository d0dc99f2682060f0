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

interface BlockFields {
  name: UstarName;
  type: string;
  size: number;
  mode: number;
  mtime: number;
}

/** Writes one header block at `at` of `out` (any earlier content of those 512 bytes is cleared). */
function writeBlock(out: Buffer, at: number, fields: BlockFields): void {
  out.fill(0, at, at + BLOCK);
  out.write(fields.name.name, at, NAME_BYTES, 'utf8');
  writeOctal(out, fields.mode, { offset: at + 100, length: 8 });
  writeOctal(out, 0, { offset: at + 108, length: 8 });
  writeOctal(out, 0, { offset: at + 116, length: 8 });
  writeOctal(out, fields.size, { offset: at + 124, length: 12 });
  writeOctal(out, fields.mtime, { offset: at + 136, length: 12 });
  out.write(fields.type, at + 156, 1, 'latin1');
  out.write('ustar\u000000', at + 257, 8, 'latin1');
  out.write(fields.name.prefix, at + 345, PREFIX_BYTES, 'utf8');
  // The checksum is the byte sum with its own field read as eight spaces.
  let sum = 8 * 0x20;
  for (let i = at; i < at + BLOCK; i++) sum += out[i] ?? 0;
  out.write(`${sum.toString(8).padStart(6, '0')}\u0000 `, at + 148, 8, 'latin1');
}

function block(fields: BlockFields): Buffer {
  const out = Buffer.alloc(BLOCK);
  writeBlock(out, 0, fields);
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

/** An entry's block fields and ustar name, or undefined in `name` when it needs a pax header. */
function headerFields(entry: TarHeaderFields): { fields: Omit<BlockFields, 'name'>; full: string; name: UstarName | undefined; bigSize: boolean } {
  const full = entry.isDir ? `${entry.name}/` : entry.name;
  const mtime = Math.min(Math.max(0, Math.floor(entry.mtime.getTime() / 1000)), MAX_OCTAL_11);
  const bigSize = entry.size > MAX_OCTAL_11;
  const fields = { type: entry.isDir ? '5' : '0', size: bigSize ? 0 : entry.size, mode: entry.mode, mtime };
  return { fields, full, name: isAscii(full) ? ustarName(full) : undefined, bigSize };
}

/** The header blocks of an entry: one ustar block, preceded by a pax header when needed. */
export function tarHeader(entry: TarHeaderFields): Buffer[] {
  const { fields, full, name: ustar, bigSize } = headerFields(entry);
  if (ustar && !bigSize) return [block({ ...fields, name: ustar })];
  let records = ustar ? '' : paxRecord('path', full);
  if (bigSize) records += paxRecord('size', String(entry.size));
  const fallback = ustar ?? { name: truncatedName(full, NAME_BYTES), prefix: '' };
  return [...paxHeader(records, fields), block({ ...fields, name: fallback })];
}

/**
 * Writes an entry's header (what tarHeader returns) at `at` of `out`, which must have room for
 * it; returns its length. The common case, one ustar block, is written in place.
 */
export function writeTarHeader(entry: TarHeaderFields, out: Buffer, at: number): number {
  const { fields, name, bigSize } = headerFields(entry);
  if (name && !bigSize) {
    writeBlock(out, at, { ...fields, name });
    return BLOCK;
  }
  let length = 0;
  for (const part of tarHeader(entry)) length += part.copy(out, at + length);
  return length;
}

/** The length of an entry's header; for a small file it does not depend on its size. */
export function tarHeaderLength(entry: TarHeaderFields): number {
  const { name, bigSize } = headerFields(entry);
  if (name && !bigSize) return BLOCK;
  return tarHeader(entry).reduce((sum, part) => sum + part.length, 0);
}
