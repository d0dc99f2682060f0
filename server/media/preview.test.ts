import { mkdtemp, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPreviewService, imageKindOf, isPreviewSize, previewFormat, type PreviewOptions, type PreviewSize } from './preview';
import { describe as describeImage, encodeBmp, exifTiff, orientedJpeg, pattern, twoTone, withApp1 } from '../../tests/support/test-images';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'preview-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const small: PreviewOptions = { processors: 2, thumbSize: 100, bigSize: 100 };

async function put(name: string, data: Buffer): Promise<{ realPath: string; stat: { mtimeMs: number; size: number } }> {
  const realPath = join(dir, name);
  await writeFile(realPath, data);
  const s = await stat(realPath);
  return { realPath, stat: { mtimeMs: s.mtimeMs, size: s.size } };
}

async function preview(options: PreviewOptions, source: { name: string; data: Buffer }, size: PreviewSize) {
  const service = createPreviewService(options);
  return service.preview({ ...(await put(source.name, source.data)), size });
}

describe('preview formats by extension', () => {
  it.each([
    ['a.jpg', 'jpeg'], ['b.JPEG', 'jpeg'], ['c.png', 'png'], ['d.gif', 'gif'], ['e.tif', 'tiff'],
    ['f.TIFF', 'tiff'], ['g.bmp', 'bmp'], ['h.webp', 'webp'], ['i.avif', 'avif'],
    ['j.mov', undefined], ['k.svg', undefined], ['l.heic', undefined], ['noext', undefined],
  ])('%s is %s', (name, kind) => {
    expect(imageKindOf(name)).toBe(kind);
  });

  it.each([
    ['a.jpg', 'jpeg', 'jpeg'], ['a.png', 'jpeg', 'png'], ['a.tiff', 'jpeg', 'png'], ['a.bmp', 'jpeg', 'png'],
    ['a.webp', 'jpeg', 'webp'], ['a.avif', 'jpeg', undefined], ['a.gif', undefined, undefined],
    ['a.svg', undefined, undefined], ['a.heic', undefined, undefined],
  ])('%s: thumb %s, big %s', (name, thumb, big) => {
    expect(previewFormat(name, 'thumb')).toBe(thumb);
    expect(previewFormat(name, 'big')).toBe(big);
  });

  it.each([['thumb', true], ['big', true], ['small', false], ['', false]])('"%s" is a preview size: %s', (v, ok) => {
    expect(isPreviewSize(v)).toBe(ok);
  });
});

describe('createPreviewService', () => {
  it.each([
    [50, 20],
    [200, 150],
  ])('fills the thumb box exactly from %ix%i, as JPEG', async (w, h) => {
    const result = await preview(small, { name: 'a.png', data: await twoTone(w, h, 'png') }, 'thumb');
    expect(result?.contentType).toBe('image/jpeg');
    expect(result?.origin).toBe('generated');
    expect(await describeImage(result!.body)).toEqual({ width: 100, height: 100, format: 'jpeg' });
  });

  it.each([
    { w: 50, h: 20, ew: 50, eh: 20 },
    { w: 200, h: 150, ew: 100, eh: 75 },
  ])('fits big within the box from $w x $h to $ew x $eh without enlarging', async ({ w, h, ew, eh }) => {
    const result = await preview(small, { name: 'a.png', data: await twoTone(w, h, 'png') }, 'big');
    expect(await describeImage(result!.body)).toEqual({ width: ew, height: eh, format: 'png' });
    expect(result?.contentType).toBe('image/png');
  });

  it.each([
    { name: 'photo.jpg', source: 'jpeg' as const, format: 'jpeg', contentType: 'image/jpeg' },
    { name: 'scan.tiff', source: 'tiff' as const, format: 'png', contentType: 'image/png' },
    { name: 'pic.webp', source: 'webp' as const, format: 'webp', contentType: 'image/webp' },
  ])('re-encodes big of $name as $format', async ({ name, source, format, contentType }) => {
    const result = await preview(small, { name, data: await twoTone(300, 200, source) }, 'big');
    expect(await describeImage(result!.body)).toEqual({ width: 100, height: 67, format });
    expect(result?.contentType).toBe(contentType);
  });

  it('uses the default sizes of api.md §12', async () => {
    const service = createPreviewService({ processors: 1 });
    const file = await put('large.png', await twoTone(2000, 1500, 'png'));
    expect(await describeImage((await service.preview({ ...file, size: 'thumb' }))!.body)).toMatchObject({ width: 256, height: 256 });
    expect(await describeImage((await service.preview({ ...file, size: 'big' }))!.body)).toMatchObject({ width: 1080, height: 810 });
  });

  it('returns the embedded EXIF thumbnail as is', async () => {
    const thumb = await sharp(await twoTone(32, 24, 'png')).jpeg().toBuffer();
    const jpeg = withApp1(await twoTone(400, 300, 'jpeg'), exifTiff(thumb, { byteOrder: 'II', orientation: 1 }));
    const result = await preview(small, { name: 'camera.JPG', data: jpeg }, 'thumb');
    expect(result?.origin).toBe('embedded');
    expect(result?.body.equals(thumb)).toBe(true);
    expect(result?.contentType).toBe('image/jpeg');
  });

  it('turns the embedded thumbnail of a photo tagged with orientation 6', async () => {
    const thumb = await sharp(await twoTone(32, 16, 'png')).jpeg().toBuffer();
    const jpeg = withApp1(await twoTone(400, 200, 'jpeg'), exifTiff(thumb, { byteOrder: 'MM', orientation: 6 }));
    const result = await preview(small, { name: 'portrait.jpg', data: jpeg }, 'thumb');
    expect(result?.origin).toBe('embedded');
    expect(await describeImage(result!.body)).toEqual({ width: 16, height: 32, format: 'jpeg' });
  });

  it('falls back to a cover crop when a rotated photo\'s embedded thumbnail is corrupt', async () => {
    const corrupt = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(40, 0x42)]);
    const jpeg = withApp1(await twoTone(400, 200, 'jpeg'), exifTiff(corrupt, { byteOrder: 'II', orientation: 6 }));
    const result = await preview(small, { name: 'broken-thumb.jpg', data: jpeg }, 'thumb');
    expect(result?.origin).toBe('generated');
    expect(await describeImage(result!.body)).toEqual({ width: 100, height: 100, format: 'jpeg' });
  });

  it('ignores the embedded thumbnail for big previews', async () => {
    const thumb = await sharp(await twoTone(32, 24, 'png')).jpeg().toBuffer();
    const jpeg = withApp1(await twoTone(400, 300, 'jpeg'), exifTiff(thumb, { byteOrder: 'II' }));
    const result = await preview(small, { name: 'camera.jpg', data: jpeg }, 'big');
    expect(await describeImage(result!.body)).toEqual({ width: 100, height: 75, format: 'jpeg' });
  });

  it('cover-crops a JPEG that has no IFD1 thumbnail', async () => {
    const result = await preview(small, { name: 'plain.jpg', data: await twoTone(300, 120, 'jpeg') }, 'thumb');
    expect(result?.origin).toBe('generated');
    expect(await describeImage(result!.body)).toEqual({ width: 100, height: 100, format: 'jpeg' });
  });

  it('applies EXIF orientation 6 to generated previews', async () => {
    const result = await preview(small, { name: 'turned.jpg', data: await orientedJpeg(200, 100, 6) }, 'big');
    expect(await describeImage(result!.body)).toEqual({ width: 50, height: 100, format: 'jpeg' });
  });

  it('previews a 24-bit BMP as PNG (big) and JPEG (thumb)', async () => {
    const bmp = encodeBmp(pattern(300, 150), { bitsPerPixel: 24 });
    const big = await preview(small, { name: 'paint.bmp', data: bmp }, 'big');
    expect(big?.contentType).toBe('image/png');
    expect(await describeImage(big!.body)).toEqual({ width: 100, height: 50, format: 'png' });
    const thumb = await preview(small, { name: 'paint.bmp', data: bmp }, 'thumb');
    expect(await describeImage(thumb!.body)).toEqual({ width: 100, height: 100, format: 'jpeg' });
  });

  it.each([
    ['an animated-capable gif', 'anim.gif', 'thumb'],
    ['an svg', 'icon.svg', 'thumb'],
    ['a heic', 'phone.heic', 'big'],
    ['the big size of an avif', 'pic.avif', 'big'],
  ] as const)('answers null (serve the original) for %s', async (_label, name, size) => {
    expect(await preview(small, { name, data: Buffer.from('whatever') }, size)).toBeNull();
  });

  it('answers null for an RLE-compressed BMP, which browsers decode themselves', async () => {
    const rle = encodeBmp(pattern(4, 4), { bitsPerPixel: 8, compression: 1 });
    expect(await preview(small, { name: 'rle.bmp', data: rle }, 'big')).toBeNull();
  });

  it('thumbnails an avif', async () => {
    const avif = await sharp(await twoTone(120, 80, 'png')).avif({ effort: 0 }).toBuffer();
    const result = await preview(small, { name: 'pic.avif', data: avif }, 'thumb');
    expect(await describeImage(result!.body)).toEqual({ width: 100, height: 100, format: 'jpeg' });
  });

  it.each([
    ['non-image bytes', 'fake.png', 415],
    ['a truncated JPEG', 'cut.jpg', 415],
  ])('answers %s (%s) with %i', async (label, name, status) => {
    const data = label === 'non-image bytes' ? Buffer.from('plain text') : (await twoTone(300, 200, 'jpeg')).subarray(0, 500);
    await expect(preview(small, { name, data }, 'thumb')).rejects.toMatchObject({ status });
  });

  it('answers 413 past maxDimension', async () => {
    await expect(preview({ ...small, maxDimension: 150 }, { name: 'wide.png', data: await twoTone(151, 10, 'png') }, 'thumb')).rejects.toMatchObject({ status: 413 });
    await expect(preview({ ...small, maxDimension: 150 }, { name: 'wide.bmp', data: encodeBmp(pattern(151, 2), { bitsPerPixel: 24 }) }, 'big')).rejects.toMatchObject({ status: 413 });
  });

  it('never runs more decodes than processors, and queues the rest', async () => {
    const service = createPreviewService({ processors: 2, thumbSize: 64 });
    const files = await Promise.all(Array.from({ length: 8 }, async (_, i) => put(`p${i}.png`, await twoTone(800 + i, 600, 'png'))));
    let peak = 0;
    let queued = 0;
    let done = false;
    const watch = (async () => {
      while (!done) {
        peak = Math.max(peak, service.semaphore.active);
        queued = Math.max(queued, service.semaphore.waiting);
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    await Promise.all(files.map((f) => service.preview({ ...f, size: 'thumb' })));
    done = true;
    await watch;
    expect(peak).toBe(2);
    expect(queued).toBeGreaterThan(0);
  });

  it.each(['gone.jpg', 'gone.bmp', 'gone.png'])('answers 404 when %s vanished before it was read', async (name) => {
    const service = createPreviewService(small);
    const request = { realPath: join(dir, name), size: 'thumb' as const, stat: { mtimeMs: 1, size: 1 } };
    await expect(service.preview(request)).rejects.toMatchObject({ code: 'not_found', status: 404 });
  });

  it('shares one decode between identical concurrent requests', async () => {
    const service = createPreviewService(small);
    const file = await put('same.png', await twoTone(300, 300, 'png'));
    const [a, b] = await Promise.all([service.preview({ ...file, size: 'thumb' }), service.preview({ ...file, size: 'thumb' })]);
    expect(a).toBe(b);
  });
});

describe('createPreviewService with a cache directory', () => {
  it('creates the cache 0700 and answers the second request from it without decoding', async () => {
    const cacheDir = join(dir, 'cache');
    const service = createPreviewService({ ...small, cacheDir });
    const file = await put('a.png', await twoTone(300, 200, 'png'));
    const first = await service.preview({ ...file, size: 'thumb' });
    expect((await stat(cacheDir)).mode & 0o777).toBe(0o700);
    // Same size and mtime but undecodable content: only a cache hit can still answer.
    await writeFile(file.realPath, Buffer.alloc(file.stat.size, 0x20));
    await utimes(file.realPath, new Date(file.stat.mtimeMs), new Date(file.stat.mtimeMs));
    const second = await service.preview({ ...file, size: 'thumb' });
    expect(second?.origin).toBe('cache');
    expect(second?.body.equals(first!.body)).toBe(true);
    expect(second?.contentType).toBe('image/jpeg');
  });

  it('regenerates when the file changed, and after invalidate()', async () => {
    const cacheDir = join(dir, 'cache');
    const service = createPreviewService({ ...small, cacheDir });
    const file = await put('a.png', await twoTone(300, 200, 'png'));
    await service.preview({ ...file, size: 'big' });
    const changed = { ...file, stat: { ...file.stat, mtimeMs: file.stat.mtimeMs + 1000 } };
    expect((await service.preview({ ...changed, size: 'big' }))?.origin).toBe('generated');
    expect((await service.preview({ ...changed, size: 'big' }))?.origin).toBe('cache');
    await service.invalidate(file.realPath);
    expect((await service.preview({ ...changed, size: 'big' }))?.origin).toBe('generated');
  });

  it('invalidate() removes the previews of every size', async () => {
    const cacheDir = join(dir, 'cache');
    const service = createPreviewService({ ...small, cacheDir });
    const file = await put('a.png', await twoTone(300, 200, 'png'));
    await service.preview({ ...file, size: 'thumb' });
    await service.preview({ ...file, size: 'big' });
    const count = async () => (await readdir(cacheDir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).length;
    expect(await count()).toBe(2);
    await service.invalidate(file.realPath);
    expect(await count()).toBe(0);
  });

  it('still answers when the cache cannot be written, and reports why', async () => {
    const blocker = join(dir, 'not-a-dir');
    await writeFile(blocker, '');
    const errors: unknown[] = [];
    const service = createPreviewService({ ...small, cacheDir: blocker, onCacheError: (e) => errors.push(e) });
    const file = await put('a.png', await twoTone(300, 200, 'png'));
    expect((await service.preview({ ...file, size: 'thumb' }))?.origin).toBe('generated');
    expect(errors.length).toBeGreaterThan(0);
  });

  it('does not cache a failure', async () => {
    const cacheDir = join(dir, 'cache');
    const service = createPreviewService({ ...small, cacheDir });
    const file = await put('bad.png', Buffer.from('not an image'));
    await expect(service.preview({ ...file, size: 'thumb' })).rejects.toMatchObject({ status: 415 });
    await expect(readdir(cacheDir)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
