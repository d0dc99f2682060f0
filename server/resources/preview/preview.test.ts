import { mkdtemp, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ServerConfig } from '../../config';
import { twoTone } from '../../../tests/support/test-images';
import { buildTestApp, type TestApp } from '../../../tests/support/test-app';

let t: TestApp;
let cacheDir: string;
let images: Record<string, Buffer>;

/** CRC-32 of PNG chunks. */
function crc32(data: Buffer): number {
  let c = ~0;
  for (const byte of data) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}

/** A decompression bomb: a PNG whose header declares `side` x `side` pixels, with a few bytes of data. */
function pngBomb(side: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(8 + data.length + 4);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', Buffer.from([0x78, 0x9c, 0x03, 0x00]))]);
}

/** A real JPEG whose frame header is rewritten to declare `width` x `height` pixels. */
function jpegBomb(jpeg: Buffer, width: number, height: number): Buffer {
  const out = Buffer.from(jpeg);
  const sof = out.indexOf(Buffer.from([0xff, 0xc0]));
  out.writeUInt16BE(height, sof + 5);
  out.writeUInt16BE(width, sof + 7);
  return out;
}

async function makeImages(): Promise<Record<string, Buffer>> {
  const jpeg = await twoTone(600, 400, 'jpeg');
  return {
    'photo.jpg': jpeg,
    'wide.png': await twoTone(2000, 1000, 'png'),
    'anim.gif': await twoTone(40, 20, 'gif'),
    'cut.jpg': jpeg.subarray(0, Math.floor(jpeg.length / 2)),
    'noise.jpg': Buffer.from('this is not a jpeg at all, only text pretending'),
    'bomb.png': pngBomb(20000),
    'bomb.jpg': jpegBomb(jpeg, 30000, 200),
  };
}

async function start(config: Partial<ServerConfig> = {}): Promise<void> {
  images ??= await makeImages();
  t = await buildTestApp({ tree: { ...images, 'notes.txt': 'hello', 'album/a.jpg': images['photo.jpg']! }, config: { cacheDir, ...config } });
  await t.addUser({ username: 'viewer', perm: { download: false } });
}

function get(url: string, opts: { user?: string; headers?: Record<string, string> } = {}): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'GET', url, headers: { 'x-auth': t.token(opts.user), ...opts.headers } });
}

async function dimensions(body: Buffer): Promise<[number, number, string]> {
  const meta = await sharp(body).metadata();
  return [meta.width, meta.height, meta.format];
}

async function cacheFiles(): Promise<number> {
  const found = await readdir(cacheDir, { recursive: true, withFileTypes: true }).catch(() => []);
  return found.filter((e) => e.isFile()).length;
}

beforeEach(async () => {
  cacheDir = await mkdtemp(join(tmpdir(), 'filemgr-cache-'));
});

afterEach(async () => {
  await t.close();
  await rm(cacheDir, { recursive: true, force: true });
});

describe('GET /api/preview/{size}{p}', () => {
  beforeEach(() => start());

  it('answers a 256x256 JPEG thumbnail with the headers of a private download', async () => {
    const res = await get('/api/preview/thumb/photo.jpg?inline=true&key=1');
    expect(res.statusCode).toBe(200);
    expect(await dimensions(res.rawPayload)).toEqual([256, 256, 'jpeg']);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(res.headers['cache-control']).toBe('private');
    expect(res.headers['content-disposition']).toBe("inline; filename*=utf-8''photo.jpg");
    const mtime = (await stat(join(t.root, 'photo.jpg'))).mtime;
    expect(res.headers['last-modified']).toBe(new Date(Math.floor(mtime.getTime() / 1000) * 1000).toUTCString());
  });

  it('names an attachment without inline=true', async () => {
    const res = await get('/api/preview/thumb/photo.jpg');
    expect(res.headers['content-disposition']).toBe("attachment; filename*=utf-8''photo.jpg");
  });

  it('fits a big preview in 1080x1080 in the source format', async () => {
    const res = await get('/api/preview/big/wide.png');
    expect(res.statusCode).toBe(200);
    expect(await dimensions(res.rawPayload)).toEqual([1080, 540, 'png']);
    expect(res.headers['content-type']).toBe('image/png');
  });

  it('makes JPEG thumbnails of PNG files and labels them as JPEG', async () => {
    const res = await get('/api/preview/thumb/wide.png');
    expect(await dimensions(res.rawPayload)).toEqual([256, 256, 'jpeg']);
    expect(res.headers['content-type']).toBe('image/jpeg');
  });

  it('serves a GIF unchanged', async () => {
    const res = await get('/api/preview/thumb/anim.gif?inline=true');
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(images['anim.gif']!)).toBe(true);
  });

  it('answers 202 without the download permission', async () => {
    const res = await get('/api/preview/thumb/photo.jpg', { user: 'viewer' });
    expect([res.statusCode, res.body]).toEqual([202, '202 Accepted\n']);
  });

  it('answers 400 for a size other than thumb and big', async () => {
    const res = await get('/api/preview/huge/photo.jpg');
    expect(res.statusCode).toBe(400);
    expect(res.body).toBe('400 Bad Request (huge is not a valid PreviewSize, try [thumb, big])\n');
  });

  it.each([
    ['a text file', '/api/preview/thumb/notes.txt'],
    ['a folder', '/api/preview/thumb/album'],
    ['the root', '/api/preview/big/'],
  ])('answers 501 for %s', async (_what, url) => {
    expect((await get(url)).statusCode).toBe(501);
  });

  it('answers 404 for a missing file', async () => {
    expect((await get('/api/preview/thumb/nothing.jpg')).statusCode).toBe(404);
  });

  it.each([
    ['a PNG declaring 20000x20000 pixels', 'bomb.png', 413],
    ['a JPEG declaring 30000x200 pixels', 'bomb.jpg', 413],
    ['a truncated JPEG', 'cut.jpg', 415],
    ['text named .jpg', 'noise.jpg', 415],
  ])('answers %s with %s and caches nothing', async (_what, name, status) => {
    const res = await get(`/api/preview/thumb/${name}`);
    expect(res.statusCode).toBe(status);
    expect(res.body).toMatch(new RegExp(`^${status} `));
    expect(await cacheFiles()).toBe(0);
  });

  it('answers 304 when the preview has not changed since the client got it', async () => {
    const first = await get('/api/preview/thumb/photo.jpg');
    const again = await get('/api/preview/thumb/photo.jpg', { headers: { 'if-modified-since': String(first.headers['last-modified']) } });
    expect(again.statusCode).toBe(304);
    const tagged = await get('/api/preview/thumb/photo.jpg', { headers: { 'if-none-match': String(first.headers.etag) } });
    expect(tagged.statusCode).toBe(304);
  });

  it('answers a range of the preview with 206', async () => {
    const whole = await get('/api/preview/thumb/photo.jpg');
    const part = await get('/api/preview/thumb/photo.jpg', { headers: { range: 'bytes=0-9' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 0-9/${whole.rawPayload.length}`);
    expect(part.rawPayload.equals(whole.rawPayload.subarray(0, 10))).toBe(true);
  });

  it('answers 403 for a link leaving the scope', async () => {
    const outside = await mkdtemp(join(tmpdir(), 'filemgr-outside-'));
    await writeFile(join(outside, 'secret.jpg'), images['photo.jpg']!);
    await symlink(join(outside, 'secret.jpg'), join(t.root, 'link.jpg'));
    expect((await get('/api/preview/thumb/link.jpg')).statusCode).toBe(403);
    await rm(outside, { recursive: true, force: true });
  });
});

describe('the preview cache under --cacheDir', () => {
  beforeEach(() => start());

  it('keeps a preview and answers the next request from it', async () => {
    const first = await get('/api/preview/thumb/photo.jpg');
    expect(await cacheFiles()).toBe(1);
    const second = await get('/api/preview/thumb/photo.jpg');
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
  });

  it.each([
    ['an overwrite through POST', { method: 'POST', url: '/api/resources/photo.jpg?override=true', payload: 'new bytes' }],
    ['a delete', { method: 'DELETE', url: '/api/resources/photo.jpg' }],
    ['a rename', { method: 'PATCH', url: '/api/resources/photo.jpg?action=rename&destination=%252Fmoved.jpg' }],
  ] as const)('drops the cached previews of a file on %s', async (_what, change) => {
    await get('/api/preview/thumb/photo.jpg');
    await get('/api/preview/big/photo.jpg');
    expect(await cacheFiles()).toBe(2);
    const res = await t.app.inject({ ...change, headers: { 'x-auth': t.token() } });
    expect(res.statusCode).toBeLessThan(300);
    expect(await cacheFiles()).toBe(0);
  });

  it('drops the cached previews of a file a tus upload replaces', async () => {
    await get('/api/preview/thumb/photo.jpg');
    const tus = (method: string, headers: Record<string, string>, payload?: Buffer) =>
      t.app.inject({ method: method as 'POST', url: '/api/tus/photo.jpg?override=true', headers: { 'x-auth': t.token(), ...headers }, ...(payload ? { payload } : {}) });
    const wide = await twoTone(300, 100, 'jpeg');
    expect((await tus('POST', { 'upload-length': String(wide.length) })).statusCode).toBe(201);
    expect(await cacheFiles()).toBe(1);
    expect((await tus('PATCH', { 'content-type': 'application/offset+octet-stream', 'upload-offset': '0' }, wide)).statusCode).toBe(204);
    expect(await cacheFiles()).toBe(0);
    const res = await get('/api/preview/big/photo.jpg');
    expect(await dimensions(res.rawPayload)).toEqual([300, 100, 'jpeg']);
  });
});

describe('previews switched off', () => {
  it('serves the original file for thumbnails with --disableThumbnails', async () => {
    await start({ enableThumbnails: false });
    const thumb = await get('/api/preview/thumb/photo.jpg?inline=true');
    expect(thumb.rawPayload.equals(images['photo.jpg']!)).toBe(true);
    expect(thumb.headers['content-disposition']).toBe("inline; filename*=utf-8''photo.jpg");
    expect(await dimensions((await get('/api/preview/big/wide.png')).rawPayload)).toEqual([1080, 540, 'png']);
  });

  it('serves the original file for big previews with --disablePreviewResize', async () => {
    await start({ resizePreview: false });
    const big = await get('/api/preview/big/wide.png');
    expect(big.rawPayload.equals(images['wide.png']!)).toBe(true);
    expect(big.headers['cache-control']).toBe('private');
    expect(await dimensions((await get('/api/preview/thumb/wide.png')).rawPayload)).toEqual([256, 256, 'jpeg']);
  });

  it('regenerates every time without --cacheDir', async () => {
    await start({ cacheDir: '' });
    expect((await get('/api/preview/thumb/photo.jpg')).statusCode).toBe(200);
    expect(await cacheFiles()).toBe(0);
  });
});
