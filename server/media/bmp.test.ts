import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeBmp } from './bmp';
import { encodeBmp, pattern } from '../../tests/support/test-images';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bmp-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function file(name: string, data: Buffer): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, data);
  return path;
}

describe('decodeBmp', () => {
  // 5 pixels wide: 24-bit and 8-bit rows need padding to 4 bytes.
  const image = pattern(5, 3);

  it.each([
    ['24-bit bottom-up', { bitsPerPixel: 24 as const }],
    ['24-bit top-down', { bitsPerPixel: 24 as const, topDown: true }],
    ['32-bit', { bitsPerPixel: 32 as const }],
    ['32-bit bitfields', { bitsPerPixel: 32 as const, bitfields: true }],
    ['8-bit palette', { bitsPerPixel: 8 as const }],
    ['8-bit palette top-down', { bitsPerPixel: 8 as const, topDown: true }],
  ])('decodes a %s image to the same RGB pixels', async (label, options) => {
    const path = await file(`${label}.bmp`, encodeBmp(image, options));
    const decoded = await decodeBmp(path, 100);
    expect(decoded).toMatchObject({ width: 5, height: 3, channels: 3 });
    expect(decoded?.data.equals(image.pixels)).toBe(true);
  });

  it('decodes an image taller than one read block', async () => {
    const tall = pattern(300, 1200);
    const path = await file('tall.bmp', encodeBmp(tall, { bitsPerPixel: 24 }));
    expect((await decodeBmp(path, 10_000))?.data.equals(tall.pixels)).toBe(true);
  });

  it.each([
    ['RLE8', { bitsPerPixel: 8 as const, compression: 1 }],
    ['RLE4-style compression on 24-bit', { bitsPerPixel: 24 as const, compression: 2 }],
  ])('leaves a %s image to the browser (undefined)', async (label, options) => {
    const path = await file(`${label}.bmp`, encodeBmp(image, options));
    expect(await decodeBmp(path, 100)).toBeUndefined();
  });

  it('answers 413 for a header over the limit before reading any pixel', async () => {
    // Header only: a decoder reading pixels would fail with "truncated" instead.
    const header = encodeBmp(image, { bitsPerPixel: 24 }).subarray(0, 54);
    header.writeInt32LE(10_001, 18);
    const path = await file('huge.bmp', header);
    await expect(decodeBmp(path, 10_000)).rejects.toMatchObject({ code: 'too_large', status: 413 });
  });

  it('answers 415 for truncated pixel data, before allocating the image', async () => {
    const header = encodeBmp(image, { bitsPerPixel: 24 }).subarray(0, 54);
    header.writeInt32LE(9000, 18);
    header.writeInt32LE(9000, 22);
    const path = await file('short.bmp', header);
    await expect(decodeBmp(path, 10_000)).rejects.toMatchObject({ code: 'unsupported_media_type' });
  });

  it.each([
    ['a text file', Buffer.from('just some text, long enough to hold a header')],
    ['a truncated header', encodeBmp(pattern(2, 2), { bitsPerPixel: 24 }).subarray(0, 30)],
    ['a zero width', (() => {
      const b = encodeBmp(pattern(2, 2), { bitsPerPixel: 24 });
      b.writeInt32LE(0, 18);
      return b;
    })()],
  ])('answers 415 for %s', async (label, data) => {
    const path = await file(`${label}.bmp`, data);
    await expect(decodeBmp(path, 100)).rejects.toMatchObject({ code: 'unsupported_media_type', status: 415 });
  });
});
