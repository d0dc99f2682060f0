import { readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeTree } from '../tests/support/tree';
import { packSharp, type SharpPayload } from './sharp-payload';

const root = resolve(__dirname, '..');

describe('packSharp', () => {
  let out: string;
  let payload: SharpPayload;

  beforeAll(async () => {
    out = await makeTree();
    payload = await packSharp(root, out);
  }, 60_000);

  it('names the payload by sharp version and content, and reports the libvips version', () => {
    const sharpVersion = (JSON.parse(readFileSync(join(root, 'node_modules/sharp/package.json'), 'utf8')) as { version: string }).version;
    expect(payload.sharpVersion).toBe(sharpVersion);
    expect(payload.manifest.id).toMatch(new RegExp(`^sharp-${sharpVersion.replace(/\./g, '\\.')}-[0-9a-f]{12}$`));
    expect(payload.libvipsVersion).toMatch(/^\d+\.\d+\.\d+$/);
    expect(JSON.parse(readFileSync(join(out, 'sharp-manifest.json'), 'utf8'))).toEqual(payload.manifest);
  });

  it.each([
    'node_modules/sharp/package.json',
    'node_modules/sharp/dist/index.cjs',
    'node_modules/@img/sharp-linux-x64/package.json',
    'node_modules/detect-libc/package.json',
    'node_modules/@img/colour/index.cjs',
    'node_modules/@img/colour/LICENSE.md',
  ])('embeds %s gzip\'d, with its size and mode', (rel) => {
    const entry = payload.manifest.files.find((f) => f.rel === rel);
    const original = join(root, rel);
    expect(entry).toEqual({ rel, size: statSync(original).size, mode: statSync(original).mode & 0o777 });
    expect(gunzipSync(readFileSync(join(out, 'sharp', rel))).equals(readFileSync(original))).toBe(true);
  });

  it('embeds the native addon and libvips, keeping the node_modules layout their RPATH needs', () => {
    const rels = payload.manifest.files.map((f) => f.rel);
    expect(rels.some((r) => /^node_modules\/@img\/sharp-linux-x64\/lib\/sharp-linux-x64-.*\.node$/.test(r))).toBe(true);
    expect(rels.some((r) => /^node_modules\/@img\/sharp-libvips-linux-x64\/lib\/libvips-cpp\.so\./.test(r))).toBe(true);
    expect(rels.every((r) => r.startsWith('node_modules/'))).toBe(true);
  });

  it('leaves out type declarations, ESM twins, readmes and C++ sources', () => {
    const rels = payload.manifest.files.map((f) => f.rel);
    expect(rels.filter((r) => /\.d\.[cm]?ts$|\.mjs$|README\.md$|\.cc$|\.h$|binding\.gyp$/.test(r))).toEqual([]);
  });

  it('gives the same id to the same files', async () => {
    const again = await packSharp(root, await makeTree());
    expect(again.manifest.id).toBe(payload.manifest.id);
  }, 60_000);
});
