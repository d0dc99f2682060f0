import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir, tmpdir, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type Sharp from 'sharp';
import { runningAsSea, seaAssets, type AssetSource } from './assets';

export type SharpModule = typeof Sharp;

interface Manifest {
  id: string;
  files: { rel: string; mode: number; size: number }[];
}

let cacheRoot = join(homedir(), '.cache', 'filemgr');
let loaded: Promise<SharpModule> | undefined;

/** Sets where the native addon is extracted (the CLI passes $XDG_CACHE_HOME/filemgr). */
export function setNativeCacheRoot(dir: string): void {
  cacheRoot = dir;
}

/**
 * sharp, loaded once. From source it is the node_modules copy; inside the executable its addon and
 * libvips are extracted once per version into <cache>/native/<id> (a SEA cannot dlopen from
 * memory) and loaded with createRequire, keeping the node_modules layout the addon's RPATH needs.
 */
export function loadSharp(): Promise<SharpModule> {
  loaded ??= runningAsSea() ? Promise.resolve(loadEmbedded(seaAssets())) : loadInstalled();
  return loaded;
}

async function loadInstalled(): Promise<SharpModule> {
  const mod = (await import('sharp')) as { default: SharpModule };
  return mod.default;
}

function loadEmbedded(assets: AssetSource): SharpModule {
  const raw = assets.read('sharp-manifest.json');
  if (!raw) throw new Error('this executable was built without sharp');
  const manifest = JSON.parse(raw.toString('utf8')) as Manifest;
  const dir = extractOnce(assets, manifest, [cacheRoot, join(tmpdir(), `filemgr-${userInfo().uid}`)]);
  return createRequire(join(dir, 'node_modules', 'noop.js'))('sharp') as SharpModule;
}

function extractOnce(assets: AssetSource, manifest: Manifest, roots: string[]): string {
  let lastError: unknown;
  for (const root of roots) {
    const dir = join(root, 'native', manifest.id);
    try {
      if (isComplete(dir, manifest)) return dir;
      extractInto(assets, manifest, dir);
      return dir;
    } catch (err) {
      lastError = err;
    }
  }
  throw new Error(`cannot extract the image library: ${String(lastError)}`);
}

function isComplete(dir: string, manifest: Manifest): boolean {
  if (!existsSync(join(dir, '.complete'))) return false;
  const intact = manifest.files.every((f) => {
    try {
      return statSync(join(dir, f.rel)).size === f.size;
    } catch {
      return false;
    }
  });
  if (!intact) rmSync(dir, { recursive: true, force: true });
  return intact;
}

function extractInto(assets: AssetSource, manifest: Manifest, dir: string): void {
  mkdirSync(dirname(dir), { recursive: true, mode: 0o700 });
  const tmp = mkdtempSync(`${dir}.tmp-`);
  try {
    for (const f of manifest.files) writeMember(assets, tmp, f);
    writeFileSync(join(tmp, '.complete'), manifest.id);
    renameSync(tmp, dir);
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true });
    // Another process may have won the race to rename its copy into place.
    if (!existsSync(join(dir, '.complete'))) throw err;
  }
}

function writeMember(assets: AssetSource, tmp: string, f: Manifest['files'][number]): void {
  const packed = assets.read(`sharp/${f.rel}`);
  if (!packed) throw new Error(`missing embedded file ${f.rel}`);
  const data = gunzipSync(packed);
  if (data.length !== f.size) throw new Error(`size mismatch for ${f.rel}`);
  const dest = join(tmp, f.rel);
  mkdirSync(dirname(dest), { recursive: true });
  writeFileSync(dest, data, { mode: f.mode });
}
