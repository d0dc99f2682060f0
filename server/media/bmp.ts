import { open, type FileHandle } from 'node:fs/promises';
import { AppError } from '../errors';

/**
 * A BMP decoder for the uncompressed 8-bit (palette), 24-bit and 32-bit variants. The libvips
 * bundled with sharp has no BMP loader (it would need ImageMagick), so previews of BMP files go
 * through here: the header is checked against the size limit before any pixel is read, and rows
 * are read in blocks straight into the output, so memory peaks at one decoded image.
 */
export interface RawImage {
  data: Buffer;
  width: number;
  height: number;
  channels: 3;
}

interface BmpLayout {
  width: number;
  height: number;
  topDown: boolean;
  bitsPerPixel: 8 | 24 | 32;
  pixelOffset: number;
  /** RGB triplets for 8-bit images. */
  palette: Buffer;
  /** Byte index within a 32-bit pixel of red, green and blue. */
  channelBytes: [number, number, number];
}

const HEAD_BYTES = 14 + 124 + 12 + 256 * 4;
const BI_RGB = 0;
const BI_BITFIELDS = 3;
const BLOCK_BYTES = 1 << 20;

/**
 * Decodes a BMP file to RGB. Throws AppError too_large past `maxDimension` (before reading pixels)
 * and unsupported_media_type for a broken file; returns undefined for a valid variant this decoder
 * does not handle (RLE, 1/4/16-bit), which browsers display themselves.
 */
export async function decodeBmp(path: string, maxDimension: number): Promise<RawImage | undefined> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    const layout = parseLayout(head.subarray(0, bytesRead));
    if (!layout) return undefined;
    if (layout.width > maxDimension || layout.height > maxDimension) {
      throw new AppError('too_large', `image is ${layout.width}x${layout.height}`);
    }
    return await readPixels(handle, layout);
  } finally {
    await handle.close();
  }
}

function broken(why: string): AppError {
  return new AppError('unsupported_media_type', `not a readable BMP file: ${why}`);
}

function parseLayout(head: Buffer): BmpLayout | undefined {
  if (head.length < 26 || head.toString('latin1', 0, 2) !== 'BM') throw broken('bad signature');
  const dibSize = head.readUInt32LE(14);
  // BITMAPCOREHEADER (12 bytes, OS/2) is a variant left to the browser.
  if (dibSize === 12) return undefined;
  if (dibSize < 40 || head.length < 14 + dibSize) throw broken('truncated header');
  const width = head.readInt32LE(18);
  const rawHeight = head.readInt32LE(22);
  if (width <= 0 || rawHeight === 0 || rawHeight === -0x80000000) throw broken('bad dimensions');
  const base = {
    width,
    height: Math.abs(rawHeight),
    topDown: rawHeight < 0,
    pixelOffset: head.readUInt32LE(10),
    palette: Buffer.alloc(0),
  };
  const bitsPerPixel = head.readUInt16LE(28);
  const compression = head.readUInt32LE(30);
  if (bitsPerPixel === 24 && compression === BI_RGB) return { ...base, bitsPerPixel, channelBytes: BGR };
  if (bitsPerPixel === 32 && compression === BI_RGB) return { ...base, bitsPerPixel, channelBytes: BGR };
  if (bitsPerPixel === 32 && compression === BI_BITFIELDS) {
    const channelBytes = maskBytes(head);
    return channelBytes && { ...base, bitsPerPixel, channelBytes };
  }
  if (bitsPerPixel === 8 && compression === BI_RGB) {
    return { ...base, bitsPerPixel, palette: readPalette(head, dibSize), channelBytes: BGR };
  }
  return undefined;
}

/** Pixels are stored blue, green, red (then an unused or alpha byte). */
const BGR: [number, number, number] = [2, 1, 0];

/** Byte positions of the R, G, B masks of a BI_BITFIELDS image, if each covers a whole byte. */
function maskBytes(head: Buffer): [number, number, number] | undefined {
  // The masks sit right after the 40-byte header, which is also where V2+ headers keep them.
  const at = 14 + 40;
  if (head.length < at + 12) throw broken('truncated header');
  const byteOf = (i: number) => [0, 1, 2, 3].find((b) => head.readUInt32LE(at + i * 4) === (0xff << (8 * b)) >>> 0);
  const [r, g, b] = [byteOf(0), byteOf(1), byteOf(2)];
  return r === undefined || g === undefined || b === undefined ? undefined : [r, g, b];
}

function readPalette(head: Buffer, dibSize: number): Buffer {
  const used = head.readUInt32LE(46);
  const count = used === 0 || used > 256 ? 256 : used;
  const start = 14 + dibSize;
  const palette = Buffer.alloc(256 * 3);
  for (let i = 0; i < count && start + i * 4 + 3 <= head.length; i++) {
    // Palette entries are B, G, R, reserved.
    palette[i * 3] = head[start + i * 4 + 2] ?? 0;
    palette[i * 3 + 1] = head[start + i * 4 + 1] ?? 0;
    palette[i * 3 + 2] = head[start + i * 4] ?? 0;
  }
  return palette;
}

async function readPixels(handle: FileHandle, layout: BmpLayout): Promise<RawImage> {
  const { width, height } = layout;
  const stride = Math.floor((layout.bitsPerPixel * width + 31) / 32) * 4;
  // Check the file holds every row before allocating the output (a tiny file may claim 10000x10000).
  if ((await handle.stat()).size < layout.pixelOffset + stride * height) throw broken('truncated pixel data');
  const out = Buffer.alloc(width * height * 3);
  const rowsPerBlock = Math.max(1, Math.floor(BLOCK_BYTES / stride));
  const block = Buffer.alloc(rowsPerBlock * stride);
  for (let first = 0; first < height; first += rowsPerBlock) {
    const rows = Math.min(rowsPerBlock, height - first);
    const { bytesRead } = await handle.read(block, 0, rows * stride, layout.pixelOffset + first * stride);
    if (bytesRead < rows * stride) throw broken('truncated pixel data');
    for (let i = 0; i < rows; i++) {
      // Rows are stored bottom-up unless the height is negative.
      const y = layout.topDown ? first + i : height - 1 - (first + i);
      convertRow(block.subarray(i * stride, (i + 1) * stride), out.subarray(y * width * 3), layout);
    }
  }
  return { data: out, width, height, channels: 3 };
}

function convertRow(src: Buffer, dst: Buffer, layout: BmpLayout): void {
  const { width, palette } = layout;
  if (layout.bitsPerPixel === 8) {
    for (let x = 0; x < width; x++) palette.copy(dst, x * 3, (src[x] ?? 0) * 3, (src[x] ?? 0) * 3 + 3);
    return;
  }
  const step = layout.bitsPerPixel / 8;
  const [r, g, b] = layout.channelBytes;
  for (let x = 0; x < width; x++) {
    dst[x * 3] = src[x * step + r] ?? 0;
    dst[x * 3 + 1] = src[x * step + g] ?? 0;
    dst[x * 3 + 2] = src[x * step + b] ?? 0;
  }
}
