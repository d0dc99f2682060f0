import { open } from 'node:fs/promises';

/**
 * The EXIF facts a thumbnail needs, read straight from a JPEG's APP1 segment: libvips exposes
 * IFD0 tags but not the IFD1 (thumbnail) image, so the TIFF structure is walked here.
 */
export interface JpegExif {
  /** EXIF Orientation 1..8, undefined when absent or out of range. */
  orientation: number | undefined;
  /** The embedded JPEG thumbnail (IFD1), exactly as stored. */
  thumbnail: Buffer | undefined;
}

/** APP segments are at most 64 KiB each; the EXIF one comes first or after a small JFIF APP0. */
export const JPEG_HEAD_BYTES = 192 * 1024;

const NONE: JpegExif = { orientation: undefined, thumbnail: undefined };

/** Reads the first JPEG_HEAD_BYTES of a file, enough for readJpegExif(). */
export async function readJpegHead(path: string): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buf = Buffer.alloc(JPEG_HEAD_BYTES);
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** Returns the orientation and embedded thumbnail of a JPEG (head), or none for anything else. */
export function readJpegExif(jpeg: Buffer): JpegExif {
  const tiff = findExifTiff(jpeg);
  if (!tiff) return NONE;
  try {
    return parseTiff(tiff);
  } catch (err) {
    // A RangeError is a truncated or lying offset: the EXIF block is unusable, the image may not be.
    if (err instanceof RangeError) return NONE;
    throw err;
  }
}

/** The TIFF block inside the first APP1 "Exif" segment, walking markers until the scan starts. */
function findExifTiff(jpeg: Buffer): Buffer | undefined {
  if (jpeg.length < 4 || jpeg[0] !== 0xff || jpeg[1] !== 0xd8) return undefined;
  let pos = 2;
  while (pos + 4 <= jpeg.length) {
    if (jpeg[pos] !== 0xff) return undefined;
    const marker = jpeg[pos + 1] ?? 0;
    // 0xFF fill bytes may precede a marker.
    if (marker === 0xff) {
      pos++;
      continue;
    }
    // Start of scan or end of image: no EXIF before the pixels.
    if (marker === 0xda || marker === 0xd9) return undefined;
    const length = jpeg.readUInt16BE(pos + 2);
    const body = jpeg.subarray(pos + 4, pos + 2 + length);
    if (marker === 0xe1 && body.subarray(0, 6).equals(EXIF_HEADER)) {
      // A segment cut off by the end of the head cannot be trusted.
      return pos + 2 + length <= jpeg.length ? body.subarray(6) : undefined;
    }
    pos += 2 + length;
  }
  return undefined;
}

const EXIF_HEADER = Buffer.from('Exif\0\0', 'latin1');

const TAG_ORIENTATION = 0x0112;
const TAG_THUMB_OFFSET = 0x0201;
const TAG_THUMB_LENGTH = 0x0202;
const TYPE_SHORT = 3;
const TYPE_LONG = 4;

interface TiffReader {
  u16(at: number): number;
  u32(at: number): number;
}

function parseTiff(tiff: Buffer): JpegExif {
  const order = tiff.toString('latin1', 0, 2);
  if (order !== 'II' && order !== 'MM') return NONE;
  const le = order === 'II';
  const r: TiffReader = {
    u16: (at) => (le ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at)),
    u32: (at) => (le ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at)),
  };
  if (r.u16(2) !== 42) return NONE;
  const ifd0 = readIfd(r, r.u32(4));
  const orientation = ifd0.tags.get(TAG_ORIENTATION);
  const ifd1 = ifd0.next > 0 ? readIfd(r, ifd0.next) : undefined;
  return {
    orientation: orientation !== undefined && orientation >= 1 && orientation <= 8 ? orientation : undefined,
    thumbnail: ifd1 ? sliceThumbnail(tiff, ifd1.tags) : undefined,
  };
}

/** The SHORT/LONG scalar tags of one IFD and the offset of the next IFD (0 = none). */
function readIfd(r: TiffReader, offset: number): { tags: Map<number, number>; next: number } {
  const count = r.u16(offset);
  const tags = new Map<number, number>();
  for (let i = 0; i < count; i++) {
    const entry = offset + 2 + i * 12;
    const type = r.u16(entry + 2);
    if (r.u32(entry + 4) !== 1) continue;
    if (type === TYPE_SHORT) tags.set(r.u16(entry), r.u16(entry + 8));
    else if (type === TYPE_LONG) tags.set(r.u16(entry), r.u32(entry + 8));
  }
  return { tags, next: r.u32(offset + 2 + count * 12) };
}

function sliceThumbnail(tiff: Buffer, tags: Map<number, number>): Buffer | undefined {
  const start = tags.get(TAG_THUMB_OFFSET);
  const length = tags.get(TAG_THUMB_LENGTH);
  if (start === undefined || !length || start + length > tiff.length) return undefined;
  const thumb = tiff.subarray(start, start + length);
  // Only a JPEG stream is a usable thumbnail (IFD1 may also describe uncompressed strips).
  return thumb[0] === 0xff && thumb[1] === 0xd8 && thumb[2] === 0xff ? Buffer.from(thumb) : undefined;
}
