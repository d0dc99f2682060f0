import sharp from 'sharp';

/**
 * Test fixtures for the media tests: images made with sharp, a JPEG APP1/EXIF block with an IFD1
 * thumbnail built byte by byte (sharp writes IFD0 only), and BMP files in the variants we decode.
 */

/** Left half red, right half blue: orientation and crops can be checked by colour. */
export async function twoTone(width: number, height: number, format: 'png' | 'jpeg' | 'gif' | 'tiff' | 'webp'): Promise<Buffer> {
  const half = Math.max(1, Math.floor(width / 2));
  const red = { r: 255, g: 0, b: 0 };
  const blue = await sharp({ create: { width: width - half || 1, height, channels: 3, background: { r: 0, g: 0, b: 255 } } }).png().toBuffer();
  return sharp({ create: { width, height, channels: 3, background: red } })
    .composite([{ input: blue, left: half, top: 0 }])
    .toFormat(format)
    .toBuffer();
}

/** A JPEG tagged with an EXIF orientation. */
export async function orientedJpeg(width: number, height: number, orientation: number): Promise<Buffer> {
  return sharp(await twoTone(width, height, 'png')).jpeg().withMetadata({ orientation }).toBuffer();
}

/** Width, height and format of encoded image bytes. */
export async function describe(data: Buffer): Promise<{ width: number; height: number; format: string }> {
  const meta = await sharp(data).metadata();
  return { width: meta.width, height: meta.height, format: meta.format };
}

/** RGB of the pixel at (x, y) of encoded image bytes. */
export async function pixel(data: Buffer, x: number, y: number): Promise<[number, number, number]> {
  const { data: raw, info } = await sharp(data).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * 3;
  return [raw[at] ?? -1, raw[at + 1] ?? -1, raw[at + 2] ?? -1];
}

interface ExifOptions {
  byteOrder: 'II' | 'MM';
  orientation?: number;
}

/** A TIFF block: IFD0 (Orientation if given) linking to IFD1, which points at `thumbnail`. */
export function exifTiff(thumbnail: Buffer, options: ExifOptions): Buffer {
  const le = options.byteOrder === 'II';
  const ifd0Entries = options.orientation === undefined ? [] : [[0x0112, 3, options.orientation]];
  const ifd0Size = 2 + ifd0Entries.length * 12 + 4;
  const ifd1Offset = 8 + ifd0Size;
  const thumbOffset = ifd1Offset + 2 + 3 * 12 + 4;
  const ifd1Entries = [
    [0x0103, 3, 6],
    [0x0201, 4, thumbOffset],
    [0x0202, 4, thumbnail.length],
  ];
  const out = Buffer.alloc(thumbOffset + thumbnail.length);
  const u16 = (v: number, at: number) => (le ? out.writeUInt16LE(v, at) : out.writeUInt16BE(v, at));
  const u32 = (v: number, at: number) => (le ? out.writeUInt32LE(v, at) : out.writeUInt32BE(v, at));
  out.write(options.byteOrder, 0, 'latin1');
  u16(42, 2);
  u32(8, 4);
  const writeIfd = (at: number, entries: number[][], next: number) => {
    u16(entries.length, at);
    entries.forEach(([tag = 0, type = 0, value = 0], i) => {
      const e = at + 2 + i * 12;
      u16(tag, e);
      u16(type, e + 2);
      u32(1, e + 4);
      if (type === 3) u16(value, e + 8);
      else u32(value, e + 8);
    });
    u32(next, at + 2 + entries.length * 12);
  };
  writeIfd(8, ifd0Entries, ifd1Offset);
  writeIfd(ifd1Offset, ifd1Entries, 0);
  thumbnail.copy(out, thumbOffset);
  return out;
}

/** `jpeg` with an APP1 Exif segment holding `tiff` inserted right after SOI. */
export function withApp1(jpeg: Buffer, tiff: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const header = Buffer.from([0xff, 0xe1, 0, 0]);
  header.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), header, body, jpeg.subarray(2)]);
}

interface BmpOptions {
  bitsPerPixel: 8 | 24 | 32;
  topDown?: boolean;
  /** BI_BITFIELDS with masks R=0x00ff0000 G=0x0000ff00 B=0x000000ff (32-bit only). */
  bitfields?: boolean;
  compression?: number;
}

/** RGB triplets, row-major from the top. */
export interface Rgb {
  width: number;
  height: number;
  pixels: Buffer;
}

/** A BMP of `image`; 8-bit uses a palette of its colours. */
export function encodeBmp(image: Rgb, options: BmpOptions): Buffer {
  const { width, height, pixels } = image;
  const bpp = options.bitsPerPixel;
  const palette = bpp === 8 ? distinctColours(pixels) : [];
  const masks = options.bitfields ? 12 : 0;
  const headerEnd = 14 + 40 + masks + palette.length * 4;
  const stride = Math.floor((bpp * width + 31) / 32) * 4;
  const out = Buffer.alloc(headerEnd + stride * height);
  out.write('BM', 0, 'latin1');
  out.writeUInt32LE(out.length, 2);
  out.writeUInt32LE(headerEnd, 10);
  out.writeUInt32LE(40, 14);
  out.writeInt32LE(width, 18);
  out.writeInt32LE(options.topDown ? -height : height, 22);
  out.writeUInt16LE(1, 26);
  out.writeUInt16LE(bpp, 28);
  out.writeUInt32LE(options.compression ?? (options.bitfields ? 3 : 0), 30);
  out.writeUInt32LE(palette.length, 46);
  if (options.bitfields) [0x00ff0000, 0x0000ff00, 0x000000ff].forEach((m, i) => out.writeUInt32LE(m, 54 + i * 4));
  palette.forEach((c, i) => out.writeUInt32LE(c, 14 + 40 + masks + i * 4));
  for (let y = 0; y < height; y++) {
    const row = headerEnd + (options.topDown ? y : height - 1 - y) * stride;
    for (let x = 0; x < width; x++) {
      const [r = 0, g = 0, b = 0] = pixels.subarray((y * width + x) * 3, (y * width + x) * 3 + 3);
      if (bpp === 8) out[row + x] = palette.indexOf((r << 16) | (g << 8) | b);
      else out.set([b, g, r], row + x * (bpp / 8));
    }
  }
  return out;
}

function distinctColours(pixels: Buffer): number[] {
  const colours = new Set<number>();
  for (let i = 0; i + 2 < pixels.length; i += 3) colours.add(((pixels[i] ?? 0) << 16) | ((pixels[i + 1] ?? 0) << 8) | (pixels[i + 2] ?? 0));
  return [...colours];
}

/** A deterministic RGB pattern with few distinct colours. */
export function pattern(width: number, height: number): Rgb {
  const out = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) out.set([(x * 40) % 256, (y * 60) % 256, ((x + y) % 3) * 100], (y * width + x) * 3);
  }
  return { width, height, pixels: out };
}
