import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { makeTree } from '../tests/support/tree';
import type { WebManifest } from '../server/plugins/web-assets/manifest';
import { precompressWeb } from './precompress';

const JS = 'export const text = "repetitive text compresses well";\n'.repeat(50);

async function build() {
  const dist = await makeTree({
    'web/assets/main-ABCD1234.js': JS,
    'web/assets/chunks/tiny-EF56.js': 'a',
    'web/img/logo.svg': `<svg xmlns="http://www.w3.org/2000/svg">${'<g/>'.repeat(100)}</svg>`,
    'web/img/photo.png': Buffer.from(JS),
  });
  const manifest = await precompressWeb(join(dist, 'web'), { js: 'assets/main-ABCD1234.js', css: null, preload: [], screens: [{ routes: ['/files'], chunks: ['assets/chunks/tiny-EF56.js'] }] });
  return { dist, manifest, file: (path: string) => manifest.files.find((f) => f.path === path) };
}

describe('precompressWeb', () => {
  it('writes brotli and gzip variants that decode to the original', async () => {
    const { dist, file } = await build();
    expect(file('assets/main-ABCD1234.js')?.variants).toEqual(['br', 'gzip']);
    const br = readFileSync(join(dist, 'web/assets/main-ABCD1234.js.br'));
    const gz = readFileSync(join(dist, 'web/assets/main-ABCD1234.js.gz'));
    expect(brotliDecompressSync(br).toString()).toBe(JS);
    expect(gunzipSync(gz).toString()).toBe(JS);
    expect(br.length).toBeLessThan(gz.length);
  });

  it('skips variants that would not be smaller', async () => {
    const { dist, file } = await build();
    expect(file('assets/chunks/tiny-EF56.js')?.variants).toEqual([]);
    expect(existsSync(join(dist, 'web/assets/chunks/tiny-EF56.js.gz'))).toBe(false);
  });

  it('never compresses formats that are compressed already', async () => {
    const { dist, file } = await build();
    expect(file('img/photo.png')?.variants).toEqual([]);
    expect(existsSync(join(dist, 'web/img/photo.png.br'))).toBe(false);
  });

  it.each([
    ['assets/main-ABCD1234.js', 'text/javascript; charset=utf-8', true],
    ['assets/chunks/tiny-EF56.js', 'text/javascript; charset=utf-8', true],
    ['img/logo.svg', 'image/svg+xml', false],
    ['img/photo.png', 'image/png', false],
  ])('records %s as %s, hashed %s, with size and a content ETag', async (path, type, hashed) => {
    const { dist, file } = await build();
    const data = readFileSync(join(dist, 'web', path));
    expect(file(path)).toEqual({
      path, type, hashed, size: data.length,
      etag: createHash('sha256').update(data).digest('base64url').slice(0, 22),
      variants: expect.any(Array) as unknown,
    });
  });

  it('writes the manifest beside the web folder, with the entry and no variant listed as a file', async () => {
    const { dist, manifest } = await build();
    const written = JSON.parse(readFileSync(join(dist, 'web-manifest.json'), 'utf8')) as WebManifest;
    expect(written).toEqual(manifest);
    expect(written.entry).toEqual({ js: 'assets/main-ABCD1234.js', css: null });
    expect(written.files.map((f) => f.path)).toEqual(['assets/chunks/tiny-EF56.js', 'assets/main-ABCD1234.js', 'img/logo.svg', 'img/photo.png']);
  });
});
