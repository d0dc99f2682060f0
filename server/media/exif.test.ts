import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JPEG_HEAD_BYTES, readJpegExif, readJpegHead } from './exif';
import { exifTiff, twoTone, withApp1 } from '../../tests/support/test-images';

let photo: Buffer;
let thumb: Buffer;
let dir: string;

beforeAll(async () => {
  photo = await twoTone(64, 48, 'jpeg');
  thumb = await sharp(await twoTone(16, 12, 'png')).jpeg().toBuffer();
  dir = await mkdtemp(join(tmpdir(), 'exif-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('readJpegExif', () => {
  it.each(['II', 'MM'] as const)('returns the IFD1 thumbnail bytes as stored (%s byte order)', (byteOrder) => {
    const exif = readJpegExif(withApp1(photo, exifTiff(thumb, { byteOrder, orientation: 6 })));
    expect(exif.thumbnail?.equals(thumb)).toBe(true);
    expect(exif.orientation).toBe(6);
  });

  it('finds the EXIF segment after a JFIF APP0 segment', () => {
    const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, ...Buffer.from('JFIF\0'), 1, 1, 0, 0, 1, 0, 1, 0, 0]);
    const tagged = withApp1(photo, exifTiff(thumb, { byteOrder: 'II' }));
    const jpeg = Buffer.concat([tagged.subarray(0, 2), app0, tagged.subarray(2)]);
    expect(readJpegExif(jpeg).thumbnail?.equals(thumb)).toBe(true);
  });

  it('reads the thumbnail that exiftool embeds', async () => {
    const photoPath = join(dir, 'photo.jpg');
    const thumbPath = join(dir, 'thumb.jpg');
    await writeFile(photoPath, photo);
    await writeFile(thumbPath, thumb);
    execFileSync('exiftool', ['-q', '-overwrite_original', '-Orientation#=8', `-ThumbnailImage<=${thumbPath}`, photoPath]);
    const exif = readJpegExif(await readFile(photoPath));
    expect(exif.thumbnail?.equals(thumb)).toBe(true);
    expect(exif.orientation).toBe(8);
  });

  it('finds nothing in a JPEG without EXIF, or with EXIF but no IFD1', async () => {
    expect(readJpegExif(photo)).toEqual({ orientation: undefined, thumbnail: undefined });
    const ifd0Only = await sharp(photo).withMetadata({ orientation: 3 }).jpeg().toBuffer();
    expect(readJpegExif(ifd0Only)).toEqual({ orientation: 3, thumbnail: undefined });
  });

  it.each([
    ['a PNG', () => Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex')],
    ['an empty buffer', () => Buffer.alloc(0)],
    ['text', () => Buffer.from('hello world')],
  ])('finds nothing in %s', (_label, make) => {
    expect(readJpegExif(make())).toEqual({ orientation: undefined, thumbnail: undefined });
  });

  it('ignores an IFD1 whose data is not a JPEG stream', () => {
    const notJpeg = Buffer.from('uncompressed strip data');
    expect(readJpegExif(withApp1(photo, exifTiff(notJpeg, { byteOrder: 'II' }))).thumbnail).toBeUndefined();
  });

  it('ignores a thumbnail offset pointing past the EXIF block', () => {
    const tiff = exifTiff(thumb, { byteOrder: 'II' });
    const lying = tiff.subarray(0, tiff.length - 10);
    expect(readJpegExif(withApp1(photo, lying)).thumbnail).toBeUndefined();
  });

  it('survives IFD offsets pointing anywhere', () => {
    const tiff = exifTiff(thumb, { byteOrder: 'MM', orientation: 1 });
    tiff.writeUInt32BE(0xfffffff0, 4);
    expect(readJpegExif(withApp1(photo, tiff))).toEqual({ orientation: undefined, thumbnail: undefined });
  });

  it('ignores an EXIF segment cut off by the end of the data', () => {
    const full = withApp1(photo, exifTiff(thumb, { byteOrder: 'II' }));
    expect(readJpegExif(full.subarray(0, 100)).thumbnail).toBeUndefined();
  });
});

describe('readJpegHead', () => {
  it('reads at most the head of a large file, and all of a small one', async () => {
    const big = join(dir, 'big.bin');
    await writeFile(big, Buffer.alloc(JPEG_HEAD_BYTES * 2, 7));
    expect((await readJpegHead(big)).length).toBe(JPEG_HEAD_BYTES);
    const small = join(dir, 'small.jpg');
    await writeFile(small, photo);
    expect((await readJpegHead(small)).equals(photo)).toBe(true);
  });
});
