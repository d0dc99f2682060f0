import { constants, existsSync } from 'node:fs';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { build, type BuildOptions, type Metafile, type Plugin } from 'esbuild';
import { INDEX_TEMPLATE_KEY, type ScreenPreload } from '../server/plugins/web-assets/manifest';
import { compileIndex, renderEntry } from '../server/plugins/web-assets/index-template';
import { assetsDir, type BuildLayout } from './layout';
import { listFiles } from './precompress';
import { checkStartGrowth, startBytes, startChunkPlugin, startCodeOf } from './start-chunk';
import { staticImportsOf } from './static-imports';

/** Everything esbuild writes lives below this folder of /static/, so it never meets web/public. */
export const BUNDLE_DIR = 'assets';

export interface WebEntry {
  js: string;
  css: string | null;
  /** The chunks the entry imports statically (all levels), preloaded by index.html. */
  preload: string[];
  /** Per screen of layout.screens: its chunk and the static imports the entry lacks. */
  screens: ScreenPreload[];
}

/** The web root inside dist/assets (served below /static/). */
export function webOutDir(layout: BuildLayout): string {
  return join(assetsDir(layout), 'web');
}

/** The output file esbuild made for a source module that is an entry or a dynamic import's target. */
function outputOf(metafile: Metafile, layout: BuildLayout, module: string): string {
  const source = relative(layout.root, module).split('\\').join('/');
  const found = Object.entries(metafile.outputs).find(([, info]) => info.entryPoint === source);
  if (!found) throw new Error(`esbuild produced no chunk of its own for ${source}: is it still imported with import()?`);
  return found[0];
}

function entryOf(metafile: Metafile, layout: BuildLayout): WebEntry {
  const outDir = webOutDir(layout);
  const rel = (p: string) => relative(outDir, resolve(layout.root, p)).split('\\').join('/');
  const out = outputOf(metafile, layout, layout.webEntry);
  const info = metafile.outputs[out];
  const preload = staticImportsOf(metafile, out);
  const loaded = new Set([out, ...preload]);
  const screens = layout.screens.map((screen) => {
    const chunk = outputOf(metafile, layout, screen.module);
    const chunks = [chunk, ...staticImportsOf(metafile, chunk)].filter((c) => !loaded.has(c));
    return { routes: [...screen.routes], chunks: chunks.map(rel) };
  });
  return { js: rel(out), css: info?.cssBundle ? rel(info.cssBundle) : null, preload: preload.map(rel), screens };
}

function esbuildOptions(layout: BuildLayout, write: boolean, plugins: Plugin[]): BuildOptions & { metafile: true } {
  return {
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
    write,
    plugins,
  };
}

/**
 * Bundles the web app: ESM with code splitting (lazy chunks), minified, content-hashed names
 * under assets/, React's automatic JSX runtime, `@contract` resolved to server/contract. Two
 * passes: the first (not written) finds the code the entry needs at start, the second puts all
 * of it in one chunk (start-chunk.ts).
 */
export async function bundleWeb(layout: BuildLayout): Promise<WebEntry> {
  const first = await build(esbuildOptions(layout, false, []));
  const entrySource = relative(layout.root, layout.webEntry).split('\\').join('/');
  const code = startCodeOf(first.metafile, outputOf(first.metafile, layout, layout.webEntry), entrySource);
  const result = await build(esbuildOptions(layout, true, [startChunkPlugin(layout.root, code)]));
  checkStartGrowth(code.bytes, startBytes(result.metafile, outputOf(result.metafile, layout, layout.webEntry)));
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
export async function renderIndex(layout: BuildLayout, entry: Pick<WebEntry, 'js' | 'css' | 'preload'>): Promise<void> {
  const html = renderEntry(await readFile(layout.indexTemplate, 'utf8'), entry);
  compileIndex(html);
  await mkdir(assetsDir(layout), { recursive: true });
  await writeFile(join(assetsDir(layout), INDEX_TEMPLATE_KEY), html);
}
