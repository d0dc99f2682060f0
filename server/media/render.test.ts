import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orientJpeg, renderImage, type OutputFormat, type RenderSpec } from './render';
import { describe as describeImage, orientedJpeg, pixel, twoTone } from '../../tests/support/test-images';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'render-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function file(name: string, data: Buffer): Promise<{ kind: 'file'; path: string }> {
  const path = join(dir, name);
  await writeFile(path, data);
  return { kind: 'file', path };
}

const spec = (over: Partial<RenderSpec>): RenderSpec => ({
  fit: 'cover',
  width: 100,
  height: 100,
  format: 'jpeg',
  maxDimension: 10_000,
  timeoutSeconds: 10,
  ...over,
});

describe('renderImage', () => {
  it.each([
    { fit: 'cover' as const, w: 50, h: 20, ew: 100, eh: 100 },
    { fit: 'cover' as const, w: 200, h: 150, ew: 100, eh: 100 },
    { fit: 'inside' as const, w: 50, h: 20, ew: 50, eh: 20 },
    { fit: 'inside' as const, w: 200, h: 150, ew: 100, eh: 75 },
  ])('$fit 100x100 from $w x $h gives $ew x $eh', async ({ fit, w, h, ew, eh }) => {
    const source = await file(`${fit}-${w}x${h}.png`, await twoTone(w, h, 'png'));
    const out = await renderImage(source, spec({ fit, format: 'png' }));
    expect([out.width, out.height]).toEqual([ew, eh]);
    expect(await describeImage(out.data)).toMatchObject({ width: ew, height: eh });
  });

  it('crops the centre when covering', async () => {
    // 300x100, left half red, right half blue: the centre square straddles both colours.
    const source = await file('wide.png', await twoTone(300, 100, 'png'));
    const out = await renderImage(source, spec({ format: 'png' }));
    expect(await pixel(out.data, 10, 50)).toEqual([255, 0, 0]);
    expect(await pixel(out.data, 90, 50)).toEqual([0, 0, 255]);
  });

  it.each(['png', 'gif', 'tiff', 'webp', 'jpeg'] as const)('resizes a %s source', async (format) => {
    const source = await file(`src.${format}`, await twoTone(200, 150, format));
    const out = await renderImage(source, spec({ fit: 'inside', format: 'png' }));
    expect([out.width, out.height]).toEqual([100, 75]);
  });

  it.each([
    ['jpeg', 'image/jpeg'],
    ['png', 'image/png'],
    ['gif', 'image/gif'],
    ['tiff', 'image/tiff'],
    ['webp', 'image/webp'],
  ] as [OutputFormat, string][])('encodes as %s when asked', async (format, contentType) => {
    const source = await file(`any-${format}.png`, await twoTone(40, 30, 'png'));
    const out = await renderImage(source, spec({ format }));
    expect(out.contentType).toBe(contentType);
    expect((await describeImage(out.data)).format).toBe(format === 'tiff' ? 'tiff' : format);
  });

  it('puts transparent areas on white when encoding JPEG, and keeps alpha in PNG', async () => {
    const clear = await sharp({ create: { width: 20, height: 20, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } }).png().toBuffer();
    const source = await file('clear.png', clear);
    const jpeg = await renderImage(source, spec({ format: 'jpeg' }));
    expect(await pixel(jpeg.data, 50, 50)).toEqual([255, 255, 255]);
    const png = await renderImage(source, spec({ fit: 'inside', format: 'png' }));
    expect((await sharp(png.data).metadata()).hasAlpha).toBe(true);
  });

  it('applies EXIF orientation 6 (rotate 90 clockwise)', async () => {
    // 40x20 with red on the left: turned clockwise it is 20x40 with red on top.
    const source = await file('rotated.jpg', await orientedJpeg(40, 20, 6));
    const out = await renderImage(source, spec({ fit: 'inside', format: 'png' }));
    expect([out.width, out.height]).toEqual([20, 40]);
    const [r, , b] = await pixel(out.data, 10, 5);
    expect(r).toBeGreaterThan(200);
    expect(b).toBeLessThan(60);
  });

  it('answers 413 for a 10001x10 PNG header without decoding pixels', async () => {
    // IHDR and a stub IDAT of 100 zero bytes (libspng wants one IDAT before it reports the header):
    // decoding the 300 KB of pixels would fail as truncated (415), so a 413 comes from the header.
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(10_001, 0);
    ihdr.writeUInt32BE(10, 4);
    ihdr.set([8, 2, 0, 0, 0], 8);
    const png = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), pngChunk('IHDR', ihdr), pngChunk('IDAT', deflateSync(Buffer.alloc(100)))]);
    const source = await file('bomb.png', png);
    await expect(renderImage(source, spec({}))).rejects.toMatchObject({ code: 'too_large', status: 413 });
    // The same file under a higher limit is decoded, and fails: proof that 413 came first.
    await expect(renderImage(source, spec({ maxDimension: 20_000 }))).rejects.toMatchObject({ code: 'unsupported_media_type' });
  });

  it('honours a smaller maxDimension', async () => {
    const source = await file('over.png', await twoTone(60, 10, 'png'));
    await expect(renderImage(source, spec({ maxDimension: 50 }))).rejects.toMatchObject({ code: 'too_large' });
  });

  it.each([
    ['non-image bytes', 'text.png', () => Promise.resolve(Buffer.from('this is not an image at all'))],
    ['a truncated JPEG', 'cut.jpg', async () => (await twoTone(300, 200, 'jpeg')).subarray(0, 600)],
    ['an SVG named .png', 'svg.png', () => Promise.resolve(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'))],
  ])('answers 415 with a clear message for %s', async (_label, name, make) => {
    const source = await file(name, await make());
    const err: unknown = await renderImage(source, spec({})).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'unsupported_media_type', status: 415 });
    expect((err as Error).message).toMatch(/cannot (decode|preview)/);
  });

  it('answers 415 for a JPEG cut off near its end rather than rendering a grey remainder', async () => {
    const jpeg = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } } }).jpeg().toBuffer();
    const source = await file('cut-late.jpg', jpeg.subarray(0, Math.floor(jpeg.length * 0.7)));
    await expect(renderImage(source, spec({}))).rejects.toMatchObject({ code: 'unsupported_media_type' });
  });

  it('answers 404 when the file disappeared', async () => {
    await expect(renderImage({ kind: 'file', path: join(dir, 'gone.png') }, spec({}))).rejects.toMatchObject({ code: 'not_found' });
  });
});

describe('orientJpeg', () => {
  it.each([2, 3, 4, 5, 6, 7, 8])('turns a thumbnail the way libvips turns a photo tagged %i', async (orientation) => {
    const tagged = await orientedJpeg(24, 12, orientation);
    const expected = await sharp(tagged).autoOrient().png().toBuffer();
    const untagged = await sharp(tagged).jpeg().toBuffer();
    const turned = await orientJpeg(untagged, orientation, 10);
    const want = await describeImage(expected);
    expect(await describeImage(turned)).toMatchObject({ width: want.width, height: want.height, format: 'jpeg' });
    for (const [x, y] of [[1, 1], [want.width - 2, want.height - 2]] as const) {
      const [a, b] = [await pixel(turned, x, y), await pixel(expected, x, y)];
      a.forEach((v, i) => expect(Math.abs(v - (b[i] ?? 0))).toBeLessThan(60));
    }
  });
});

function pngChunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

function crc32(data: Buffer): number {
  let c = 0xffffffff;
  for (const byte of data) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}
