/**
 * The executable runs the server bundle through a small main script (built by build/code-cache.ts)
 * that compiles it with a V8 code cache made after a warm-up start, so the functions a start
 * runs are deserialized instead of compiled. That main script records here what became of the cache.
 */

export const BUNDLE_ASSET = 'filemgr.cjs';
export const CODE_CACHE_ASSET = 'filemgr.cache';

/** Where the main script leaves the cache's fate (a registered symbol: both sides can name it). */
export const CODE_CACHE_STATUS = Symbol.for('filemgr.codeCache');

/** `used`, `rejected` (another Node or other V8 flags made it), or `none` (not the executable). */
export function codeCacheStatus(): 'used' | 'rejected' | 'none' {
  const status = (globalThis as Record<symbol, unknown>)[CODE_CACHE_STATUS];
  return status === 'used' || status === 'rejected' ? status : 'none';
}

/** What running bundleScript's text yields: the CommonJS module function, called with these. */
export type BundleMain = (...args: [exports: unknown, require: NodeJS.Require, module: unknown, filename: string, dirname: string]) => void;

/**
 * The text compiled as one script: the bundle as a CommonJS module function. The warm-up and the
 * executable must build exactly this string, or V8 refuses the cache.
 */
export function bundleScript(bundle: string): string {
  return `(function (exports, require, module, __filename, __dirname) {${bundle}\n})`;
}
