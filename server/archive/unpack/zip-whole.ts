import type { FileHandle } from 'node:fs/promises';
import { promisify } from 'node:util';
import { inflateRaw } from 'node:zlib';
import type yauzl from 'yauzl';
import { asMalformed, MalformedArchive } from './malformed';

const inflateRawAsync = promisify(inflateRaw);
const LOCAL_HEADER = 30;
const LOCAL_SIGNATURE = 0x04034b50;
/** Bytes read past the fixed local header for its name and extra field, in the same read. */
const HEADER_ROOM = 1024;

/** Entries up to this size (both sizes) are read and inflated whole; 4 lanes hold at most 4. */
export const WHOLE_ENTRY = 256 * 1024;

/** Whether `entry` is deflated and small enough to go whole (its declared sizes bound the buffers). */
export function goesWhole(entry: yauzl.Entry): boolean {
  return entry.compressionMethod === 8 && entry.uncompressedSize <= WHOLE_ENTRY && entry.compressedSize <= WHOLE_ENTRY;
}

/**
 * The entry's deflated bytes: its local header (for the length of its name and extra field) and
 * its data in one positional read, a second only when that name and field are over 1 KiB.
 */
async function deflatedBytes(archive: FileHandle, fileSize: number, entry: yauzl.Entry): Promise<Buffer> {
  const at = entry.relativeOffsetOfLocalHeader;
  const want = Math.min(LOCAL_HEADER + HEADER_ROOM + entry.compressedSize, fileSize - at);
  if (want < LOCAL_HEADER) throw new MalformedArchive('local file header overflows the file');
  const buf = Buffer.allocUnsafe(want);
  const { bytesRead } = await archive.read(buf, 0, want, at);
  if (bytesRead < LOCAL_HEADER || buf.readUInt32LE(0) !== LOCAL_SIGNATURE) throw new MalformedArchive('invalid local file header signature');
  const start = LOCAL_HEADER + buf.readUInt16LE(26) + buf.readUInt16LE(28);
  const end = start + entry.compressedSize;
  if (at + end > fileSize) throw new MalformedArchive('file data overflows file bounds');
  if (end <= bytesRead) return buf.subarray(start, end);
  const data = Buffer.allocUnsafe(entry.compressedSize);
  const more = await archive.read(data, 0, data.length, at + start);
  if (more.bytesRead !== data.length) throw new MalformedArchive('unexpected end of file');
  return data;
}

/**
 * A small deflated entry read and inflated in one piece each (one read and one inflate on the
 * thread pool instead of a header read, a read stream and an inflate stream): most of an
 * archive's entries are small, and their per-piece hand-offs, not their bytes, cost the most.
 * Never more than the declared size comes out, and less is refused.
 */
export async function inflateWhole(archive: FileHandle, fileSize: number, entry: yauzl.Entry): Promise<Buffer> {
  const deflated = await deflatedBytes(archive, fileSize, entry);
  try {
    const out = await inflateRawAsync(deflated, { maxOutputLength: Math.max(1, entry.uncompressedSize) });
    if (out.length !== entry.uncompressedSize) throw new MalformedArchive('not enough bytes in the stream');
    return out;
  } catch (err) {
    throw asMalformed(err);
  }
}
