/**
 * The web manifest written by `npm run build` (asset `web-manifest.json`) and read by the
 * web-assets plugin: one entry per file of the web app, served under /static/.
 */
export type Encoding = 'br' | 'gzip';

export interface WebFile {
  /** Path below /static/, e.g. `assets/main-4F2KQ.js` or `img/logo.svg`. */
  path: string;
  type: string;
  /** Content hash (base64url) of the uncompressed bytes. */
  etag: string;
  size: number;
  /** Content-hashed name: cacheable forever. */
  hashed: boolean;
  /** Precompressed variants that are smaller than the original. */
  variants: Encoding[];
}

/**
 * A lazily loaded screen whose code the index page preloads when the address opens it: the
 * screen's chunk and every chunk it imports statically that the entry does not already preload.
 */
export interface ScreenPreload {
  /** Routes below the base URL, e.g. `/files`: each matches itself and everything below it. */
  routes: string[];
  chunks: string[];
}

export interface WebManifest {
  version: 1;
  /** The entry script and stylesheet the index page loads (paths as in `files`). */
  entry: { js: string; css: string | null };
  files: WebFile[];
  /** Absent in manifests of older builds: nothing extra is preloaded. */
  screens?: ScreenPreload[];
}

/** Asset key of the web manifest. */
export const WEB_MANIFEST_KEY = 'web-manifest.json';
/** Asset key of the index.html template. */
export const INDEX_TEMPLATE_KEY = 'index.html';

const SUFFIX: Readonly<Record<Encoding, string>> = { br: '.br', gzip: '.gz' };

/** The asset key of a web file, or of one of its precompressed variants. */
export function webAssetKey(path: string, encoding?: Encoding): string {
  return `web/${path}${encoding ? SUFFIX[encoding] : ''}`;
}

/** File-name suffix of a precompressed variant. */
export function variantSuffix(encoding: Encoding): string {
  return SUFFIX[encoding];
}

/** Parses and checks the manifest; throws with a clear message when it is not one. */
export function parseWebManifest(raw: Buffer): WebManifest {
  const value = JSON.parse(raw.toString('utf8')) as Partial<WebManifest>;
  if (value.version !== 1 || !Array.isArray(value.files) || typeof value.entry?.js !== 'string') {
    throw new Error('web-manifest.json is not a version 1 web manifest: rebuild with npm run build');
  }
  return value as WebManifest;
}
