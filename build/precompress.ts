import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { contentTypeOf, isCompressible } from '../server/plugins/web-assets/content-types';
import { WEB_MANIFEST_KEY, variantSuffix, type Encoding, type WebFile, type WebManifest } from '../server/plugins/web-assets/manifest';
import { BUNDLE_DIR, type WebEntry } from './web-bundle';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

const ENCODERS: Readonly<Record<Encoding, (data: Buffer) => Promise<Buffer>>> = {
  // Compressed once at build time, so the slowest, smallest settings pay off.
  br: (data) => brotli(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length } }),
  gzip: (data) => gz(data, { level: 9 }),
};

/** Every file below `dir`, as `/`-separated paths relative to it. */
export async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)).split('\\').join('/'))
    .sort();
}

/** The ETag value of some bytes: 22 base64url characters (132 bits) of their SHA-256. */
export function contentTag(data: Buffer): string {
  return createHash('sha256').update(data).digest('base64url').slice(0, 22);
}

async function describe(webDir: string, path: string): Promise<WebFile> {
  const data = await readFile(join(webDir, path));
  const variants: Encoding[] = [];
  if (isCompressible(path)) {
    for (const encoding of ['br', 'gzip'] as const) {
      const packed = await ENCODERS[encoding](data);
      // A variant that saves nothing only costs a header and a lookup.
      if (packed.length >= data.length) continue;
      await writeFile(join(webDir, path + variantSuffix(encoding)), packed);
      variants.push(encoding);
    }
  }
  return { path, type: contentTypeOf(path), etag: contentTag(data), size: data.length, hashed: path.startsWith(`${BUNDLE_DIR}/`), variants };
}

/**
 * Writes the brotli (q11) and gzip (9) variants of the compressible web files when they are
 * smaller, and the manifest the server reads (`web-manifest.json` beside `webDir`).
 */
export async function precompressWeb(webDir: string, entry: WebEntry): Promise<WebManifest> {
  const paths = await listFiles(webDir);
  const files = await Promise.all(paths.map((path) => describe(webDir, path)));
  const manifest: WebManifest = { version: 1, entry: { js: entry.js, css: entry.css }, files, screens: entry.screens };
  await writeFile(join(webDir, '..', WEB_MANIFEST_KEY), `${JSON.stringify(manifest, null, 1)}\n`);
  return manifest;
}
