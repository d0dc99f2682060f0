import { ByteReader } from './byte-reader';
import { MalformedArchive } from './malformed';

/**
 * A streaming tar reader: 512-byte headers (ustar with its prefix field, old GNU), GNU long names
 * and link names (`L`, `K`) and pax extended headers (`x`: path, linkpath, size). Our own code
 * rather than a dependency: it is small, it must hand each entry's bytes on as a stream without
 * buffering, and every malformed input has to end as a reason we can show (400), never a crash.
 */

export type TarEntryType = 'file' | 'dir' | 'symlink' | 'hardlink' | 'skip';

export interface TarEntry {
  name: string;
  type: TarEntryType;
  linkname: string;
  size: number;
  mode: number;
  /** The bytes of a file entry; must be read to the end (or skipped by the reader) before the next. */
  body: AsyncGenerator<Buffer>;
}

const BLOCK = 512;
/** Long names and pax records are held in memory: a sane cap keeps that small. */
const MAX_META = 1024 * 1024;

function text(block: Buffer, start: number, length: number): string {
  const field = block.subarray(start, start + length);
  const end = field.indexOf(0);
  return field.subarray(0, end === -1 ? length : end).toString('utf8');
}

/** An octal field, or GNU's base-256 form (high bit of the first byte set) for large values. */
function numeric(field: Buffer, what: string): number {
  const length = field.length;
  if ((field[0]! & 0x80) !== 0) {
    let value = field[0]! & 0x7f;
    for (let i = 1; i < length; i++) value = value * 256 + field[i]!;
    if (!Number.isSafeInteger(value)) throw new MalformedArchive(`the ${what} of a tar header is too large`);
    return value;
  }
  const digits = field.toString('latin1').replace(/\0.*$/s, '').trim();
  if (digits === '') return 0;
  if (!/^[0-7]+$/.test(digits)) throw new MalformedArchive(`a tar header has an invalid ${what}`);
  return parseInt(digits, 8);
}

function checksumOk(block: Buffer): boolean {
  let stored: number;
  try {
    stored = numeric(block.subarray(148, 156), 'checksum');
  } catch {
    return false;
  }
  let unsigned = 0;
  let signed = 0;
  for (let i = 0; i < BLOCK; i++) {
    const b = i >= 148 && i < 156 ? 0x20 : block[i]!;
    unsigned += b;
    signed += b > 127 ? b - 256 : b;
  }
  return stored === unsigned || stored === signed;
}

/** The pax records of an extended header: `<len> key=value\n` each. */
export function paxRecords(data: Buffer): Map<string, string> {
  const out = new Map<string, string>();
  let at = 0;
  while (at < data.length) {
    const space = data.indexOf(0x20, at);
    const len = space === -1 ? NaN : Number(data.toString('latin1', at, space));
    if (!Number.isSafeInteger(len) || len <= 0 || at + len > data.length) throw new MalformedArchive('a pax header is malformed');
    const record = data.toString('utf8', space + 1, at + len - 1);
    const eq = record.indexOf('=');
    if (eq === -1) throw new MalformedArchive('a pax header is malformed');
    out.set(record.slice(0, eq), record.slice(eq + 1));
    at += len;
  }
  return out;
}

const TYPES: Readonly<Record<string, TarEntryType>> = { '': 'file', '0': 'file', '7': 'file', '1': 'hardlink', '2': 'symlink', '5': 'dir', '3': 'skip', '4': 'skip', '6': 'skip', V: 'skip' };

interface Pending {
  name?: string;
  linkname?: string;
  size?: number;
}

function headerName(block: Buffer): string {
  const name = text(block, 0, 100);
  const ustar = block.toString('latin1', 257, 263) === 'ustar\0';
  const prefix = ustar ? text(block, 345, 155) : '';
  return prefix === '' ? name : `${prefix}/${name}`;
}

async function metaData(reader: ByteReader, size: number): Promise<Buffer> {
  if (size > MAX_META) throw new MalformedArchive('a tar long name or pax header is too large');
  const data = size === 0 ? Buffer.alloc(0) : await reader.take(size);
  if (data === null) throw new MalformedArchive('the archive ends in the middle of a header');
  await reader.skip(padding(size));
  return data;
}

const padding = (size: number): number => (BLOCK - (size % BLOCK)) % BLOCK;

/** Applies a metadata header (L, K, x, g) to `pending`; false when the header is an entry. */
async function applyMeta(reader: ByteReader, { flag, size }: { flag: string; size: number }, pending: Pending): Promise<boolean> {
  if (flag === 'L') pending.name = (await metaData(reader, size)).toString('utf8').replace(/\0+$/, '');
  else if (flag === 'K') pending.linkname = (await metaData(reader, size)).toString('utf8').replace(/\0+$/, '');
  else if (flag === 'x') {
    const pax = paxRecords(await metaData(reader, size));
    if (pax.has('path')) pending.name = pax.get('path');
    if (pax.has('linkpath')) pending.linkname = pax.get('linkpath');
    const paxSize = pax.get('size');
    if (paxSize !== undefined) {
      if (!/^\d+$/.test(paxSize) || !Number.isSafeInteger(Number(paxSize))) throw new MalformedArchive('a pax header has an invalid size');
      pending.size = Number(paxSize);
    }
  } else if (flag === 'g') await metaData(reader, size);
  else return false;
  return true;
}

/** The entries of a tar stream, in order. Each entry's body must be consumed before the next is asked for. */
export async function* tarEntries(source: AsyncIterable<Buffer>): AsyncGenerator<TarEntry> {
  const reader = new ByteReader(source[Symbol.asyncIterator]());
  let pending: Pending = {};
  for (;;) {
    const block = await reader.take(BLOCK);
    if (block === null) {
      if (reader.consumed === 0) throw new MalformedArchive('the archive is empty');
      return;
    }
    if (block.every((b) => b === 0)) return;
    if (!checksumOk(block)) throw new MalformedArchive(reader.consumed === BLOCK ? 'not a tar archive' : 'a tar header has a wrong checksum');
    const flag = String.fromCharCode(block[156]!).replace('\0', '');
    const size = pending.size ?? numeric(block.subarray(124, 136), 'size');
    if (await applyMeta(reader, { flag, size: numeric(block.subarray(124, 136), 'size') }, pending)) continue;
    const type = TYPES[flag];
    if (type === undefined) throw new MalformedArchive(`unsupported tar entry type '${flag}' for ${pending.name ?? headerName(block)}`);
    const entry: TarEntry = {
      name: pending.name ?? headerName(block),
      type,
      linkname: pending.linkname ?? text(block, 157, 100),
      size: type === 'file' ? size : 0,
      mode: numeric(block.subarray(100, 108), 'mode') & 0o7777,
      body: reader.chunks(type === 'file' ? size : 0),
    };
    pending = {};
    const start = reader.consumed;
    yield entry;
    // Whatever the consumer left unread (the data of a link or device too), then the padding.
    await reader.skip(start + size - reader.consumed);
    await reader.skip(padding(size));
  }
}
