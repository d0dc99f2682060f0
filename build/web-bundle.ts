import { constants, existsSync } from 'node:fs';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { INDEX_TEMPLATE_KEY } from '../server/plugins/web-assets/manifest';
import { compileIndex, renderEntry } from '../server/plugins/web-assets/index-template';
import { assetsDir, type BuildLayout } from './layout';
import { listFiles } from './precompress';
import { staticImportsOf } from './static-imports';

/** Everything esbuild writes lives below this folder of /static/, so it never meets web/public. */
export const BUNDLE_DIR = 'assets';

export interface WebEntry {
  js: string;
  css: string | null;
  /** The chunks the entry imports statically (all levels), preloaded by index.html. */
  preload: string[];
}

/** The web root inside dist/assets (served below /static/). */
export function webOutDir(layout: BuildLayout): string {
  return join(assetsDir(layout), 'web');
}

function entryOf(metafile: Metafile, layout: BuildLayout): WebEntry {
  const outDir = webOutDir(layout);
  const entryRel = relative(layout.root, layout.webEntry);
  for (const [out, info] of Object.entries(metafile.outputs)) {
    if (info.entryPoint !== entryRel) continue;
    const rel = (p: string) => relative(outDir, resolve(layout.root, p)).split('\\').join('/');
    return { js: rel(out), css: info.cssBundle ? rel(info.cssBundle) : null, preload: staticImportsOf(metafile, out).map(rel) };
  }
  throw new Error(`esbuild produced no output for ${entryRel}`);
}

/**
 * Bundles the web app: ESM with code splitting (lazy chunks), minified, content-hashed names
 * under assets/, React's automatic JSX runtime, `@contract` resolved to server/contract.
 */
export async function bundleWeb(layout: BuildLayout): Promise<WebEntry> {
  const result = await build({
    absWorkingDir: layout.root,
    entryPoints: [layout.webEntry],
    outdir: webOutDir(layout),
    entryNames: `${BUNDLE_DIR}/[name]-[hash]`,
    chunkNames: `${BUNDLE_DIR}/chunks/[name]-[hash]`,
    assetNames: `${BUNDLE_DIR}/[name]-[hash]`,
    bundle: true,
    format: 'esm',
    splitting: true,
    minify: true,
    platform: 'browser',
    target: ['es2022', 'chrome111', 'firefox115', 'safari16.4'],
    jsx: 'automatic',
    alias: { '@contract': join(layout.root, 'server/contract') },
    define: { 'process.env.NODE_ENV': '"production"' },
    loader: { '.svg': 'file', '.png': 'file', '.jpg': 'file', '.gif': 'file', '.webp': 'file', '.woff': 'file', '.woff2': 'file', '.ttf': 'file' },
    legalComments: 'eof',
    charset: 'utf8',
    metafile: true,
    logLevel: 'warning',
  });
  return entryOf(result.metafile, layout);
}

/** Copies web/public/** verbatim below /static/ (refusing names the bundle owns). */
export async function copyPublic(layout: BuildLayout): Promise<void> {
  if (!existsSync(layout.webPublic)) return;
  if (existsSync(join(layout.webPublic, BUNDLE_DIR))) throw new Error(`web/public/${BUNDLE_DIR}/ would collide with the bundle's output`);
  for (const rel of await listFiles(layout.webPublic)) {
    const dest = join(webOutDir(layout), rel);
    await mkdir(dirname(dest), { recursive: true });
    await copyFile(join(layout.webPublic, rel), dest, constants.COPYFILE_EXCL);
  }
}

/** Renders web/index.html with the entry's hashed names; fails now if the server could not compile it. */
export async function renderIndex(layout: BuildLayout, entry: WebEntry): Promise<void> {
  const html = renderEntry(await readFile(layout.indexTemplate, 'utf8'), entry);
  compileIndex(html);
  await mkdir(assetsDir(layout), { recursive: true });
  await writeFile(join(assetsDir(layout), INDEX_TEMPLATE_KEY), html);
}
