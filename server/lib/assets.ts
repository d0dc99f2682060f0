import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { getRawAsset, isSea } from 'node:sea';
import { PACK_ASSET, PACK_INDEX_ASSET, packReader, type PackIndex } from './asset-pack';
import { BUNDLE_ASSET, CODE_CACHE_ASSET } from './code-cache';
import { seaFileReader } from './sea-file';

/**
 * The one place that knows where embedded files come from: inside the single executable they are
 * SEA assets (mapped from the binary, no copy); when running from source or `node dist/...` they
 * are files under dist/assets written by `npm run build`.
 */
export interface AssetSource {
  /** The bytes of an asset, or undefined when it does not exist. */
  read(key: string): Buffer | undefined;
}

/** True when this process is the single executable (a Node SEA). */
export function runningAsSea(): boolean {
  return isSea();
}

/** The bytes of a SEA asset as the ArrayBuffer that maps the executable (never written to). */
export function rawBytes(key: string): ArrayBuffer {
  const raw = getRawAsset(key);
  return typeof raw === 'string' ? new Uint8Array(Buffer.from(raw, 'utf8')).buffer : raw;
}

/** Every asset the build embeds (build/sea.ts): the file reader must find each with Node's length. */
const EMBEDDED = [BUNDLE_ASSET, CODE_CACHE_ASSET, PACK_INDEX_ASSET, PACK_ASSET] as const;

let fileReader: ReturnType<typeof seaFileReader> | null | undefined;

function embeddedFile(): ReturnType<typeof seaFileReader> | null {
  fileReader ??= seaFileReader(new Map(EMBEDDED.map((key) => [key, rawBytes(key).byteLength]))) ?? null;
  return fileReader;
}

/**
 * How the executable reads the assets it reads once: from its own file (pread, so the pages are not
 * kept resident, see sea-file.ts), through Node's mapping of the blob (when the file cannot be read
 * or is laid out otherwise), or not at all (not the executable).
 */
export function assetReads(): 'read from the file' | 'read through the mapping' | 'not embedded' {
  if (!isSea()) return 'not embedded';
  return embeddedFile() ? 'read from the file' : 'read through the mapping';
}

/**
 * The bytes of an asset read once (the server bundle, its code cache, the pack's index): a copy
 * read from the executable's file when it can be, else a view of the mapping.
 */
export function onceBytes(key: string): Buffer {
  return embeddedFile()?.read(key) ?? Buffer.from(rawBytes(key));
}

function rawText(key: string): string {
  return onceBytes(key).toString('utf8');
}

/** Assets embedded in the executable: files of the pack (see asset-pack.ts), its index read on first use. */
export function seaAssets(): AssetSource {
  if (!isSea()) throw new Error('not running as a single executable');
  let read: ((key: string) => Buffer | undefined) | undefined;
  return {
    read(key) {
      // The ArrayBuffer maps the executable itself: views of it are never written to.
      read ??= packReader(JSON.parse(rawText(PACK_INDEX_ASSET)) as PackIndex, rawBytes(PACK_ASSET));
      return read(key);
    },
  };
}

/** Assets from a directory on disk (dist/assets after a build). */
export function dirAssets(dir: string): AssetSource {
  return {
    read(key) {
      if (key.includes('..')) return undefined;
      try {
        return readFileSync(join(dir, key));
      } catch {
        return undefined;
      }
    },
  };
}

/** An asset source with nothing in it (tests that do not need the web app). */
export function noAssets(): AssetSource {
  return { read: () => undefined };
}

/**
 * The assets of this program: embedded in the executable, or dist/assets beside the running script
 * (dist/filemgr.cjs) or one level up (cli/main.ts run from source).
 */
export function defaultAssets(): AssetSource {
  if (runningAsSea()) return seaAssets();
  const script = dirname(process.argv[1] ?? '.');
  const dirs = [join(script, 'assets'), join(script, '..', 'dist', 'assets')];
  return dirAssets(dirs.find((d) => existsSync(d)) ?? join(script, 'assets'));
}
