import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { listFiles } from './precompress';

const gz = promisify(gzip);

/** The manifest server/lib/sharp-loader.ts reads (asset `sharp-manifest.json`). */
export interface SharpManifest {
  id: string;
  files: { rel: string; mode: number; size: number }[];
}

export interface SharpPayload {
  manifest: SharpManifest;
  sharpVersion: string;
  libvipsVersion: string;
}

interface PackageJson {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

// Type declarations, ESM twins (the loader uses require), docs and C++ sources are not run.
const SKIP = /\.d\.[cm]?ts$|\.mjs$|\.h$|\.cc$|\.gypi?$/;

function wanted(rel: string): boolean {
  const name = basename(rel);
  if (/^licen[cs]e/i.test(name)) return true;
  return !SKIP.test(name) && !name.toLowerCase().endsWith('.md') && !rel.split('/').includes('node_modules');
}

/** Node's lookup of `name` from a package directory: its own node_modules, then each parent's. */
function resolvePackage(fromDir: string, name: string, root: string): string | undefined {
  for (let dir = fromDir; dir.startsWith(root); dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dir === root) break;
  }
  return undefined;
}

/** sharp and every package it loads at run time that is installed (the platform's prebuilt addon and libvips). */
async function runtimeClosure(root: string): Promise<string[]> {
  const start = join(root, 'node_modules', 'sharp');
  if (!existsSync(start)) throw new Error('sharp is not installed: run npm ci');
  const seen = new Set<string>([start]);
  const queue = [start];
  for (let dir = queue.shift(); dir !== undefined; dir = queue.shift()) {
    const pkg = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as PackageJson;
    const deps = [...Object.keys(pkg.dependencies ?? {}).map((n) => [n, true] as const), ...Object.keys(pkg.optionalDependencies ?? {}).map((n) => [n, false] as const)];
    for (const [name, required] of deps) {
      const found = resolvePackage(dir, name, root);
      if (!found && required) throw new Error(`${pkg.name} needs ${name}, which is not installed`);
      if (found && !seen.has(found)) {
        seen.add(found);
        queue.push(found);
      }
    }
  }
  return [...seen].sort();
}

async function packFile(root: string, outDir: string, path: string): Promise<{ rel: string; mode: number; size: number; hash: Buffer }> {
  const rel = relative(root, path).split('\\').join('/');
  const [data, info] = await Promise.all([readFile(path), stat(path)]);
  const dest = join(outDir, 'sharp', rel);
  await mkdir(dirname(dest), { recursive: true });
  await writeFile(dest, await gz(data, { level: 6 }));
  const hash = createHash('sha256').update(rel).update('\0').update(data).digest();
  return { rel, mode: info.mode & 0o777, size: data.length, hash };
}

async function versionOf(dir: string | undefined, file: string, key: string): Promise<string> {
  if (!dir) throw new Error(`cannot find ${file} for the ${key} version`);
  const value = (JSON.parse(await readFile(join(dir, file), 'utf8')) as Record<string, unknown>)[key];
  if (typeof value !== 'string') throw new Error(`${join(dir, file)} has no ${key}`);
  return value;
}

/**
 * Embeds sharp (packaging.md §3): every runtime file of sharp's package closure, gzip'd, as
 * assets `sharp/node_modules/...` plus `sharp-manifest.json`, which the executable extracts
 * once per id into its native cache and loads with createRequire.
 */
export async function packSharp(repoRoot: string, outDir: string): Promise<SharpPayload> {
  const root = resolve(repoRoot);
  const packages = await runtimeClosure(root);
  const paths = (await Promise.all(packages.map(async (dir) => (await listFiles(dir)).filter(wanted).map((f) => join(dir, f))))).flat();
  const packed = await Promise.all(paths.map((p) => packFile(root, outDir, p)));
  packed.sort((a, b) => (a.rel < b.rel ? -1 : 1));
  const sharpVersion = await versionOf(join(root, 'node_modules/sharp'), 'package.json', 'version');
  const digest = createHash('sha256');
  for (const f of packed) digest.update(f.hash);
  const manifest: SharpManifest = { id: `sharp-${sharpVersion}-${digest.digest('hex').slice(0, 12)}`, files: packed.map(({ rel, mode, size }) => ({ rel, mode, size })) };
  await writeFile(join(outDir, 'sharp-manifest.json'), `${JSON.stringify(manifest)}\n`);
  const libvipsDir = packages.find((d) => /sharp-libvips-linux-x64$/.test(d));
  return { manifest, sharpVersion, libvipsVersion: await versionOf(libvipsDir, 'versions.json', 'vips') };
}
