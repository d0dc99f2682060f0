import { mkdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { PACK_ASSET, PACK_INDEX_ASSET } from '../server/lib/asset-pack';
import { checkExecutable } from './check';
import { codeCachePath, makeCodeCache, seaMainPath } from './code-cache';
import { assetsDir, executablePath, type BuildLayout } from './layout';
import { dropFromPageCache } from './page-cache';
import { precompressWeb } from './precompress';
import { embeddedNodeVersion, injectBlob, makeBlob, stripNode } from './sea';
import { bundleServer, bundleWorkers } from './server-bundle';
import { packSharp } from './sharp-payload';
import { buildVersion } from './versions';
import { bundleWeb, copyPublic, renderIndex, webOutDir } from './web-bundle';

export interface BuildReport {
  version: string;
  commit: string;
  /** Seconds per step, in the order they finished. */
  steps: [string, number][];
  totalSeconds: number;
  executableBytes: number;
  /** What `version --verbose` printed. */
  versions: string;
}

type Log = (line: string) => void;

function timer(steps: [string, number][], log: Log) {
  return async <T>(label: string, fn: () => Promise<T>): Promise<T> => {
    const start = performance.now();
    const result = await fn();
    const seconds = (performance.now() - start) / 1000;
    steps.push([label, seconds]);
    log(`  ${label.padEnd(10)} ${seconds.toFixed(2)} s`);
    return result;
  };
}

async function buildWeb(layout: BuildLayout): Promise<void> {
  const entry = await bundleWeb(layout);
  await copyPublic(layout);
  await renderIndex(layout, entry);
  await precompressWeb(webOutDir(layout), entry);
}

/**
 * `npm run build`: the web bundle (+ variants and manifest), the sharp payload, the server and
 * archive-worker bundles and a stripped Node run in parallel; then the SEA blob, the injection
 * into dist/filemgr (dropped from the page cache, see page-cache.ts), and the check that the executable prints all four versions.
 */
export async function runBuild(layout: BuildLayout, log: Log = console.log): Promise<BuildReport> {
  const started = performance.now();
  const steps: [string, number][] = [];
  const timed = timer(steps, log);
  const version = await buildVersion(layout.root);
  log(`building filemgr ${version.version}/${version.commit}`);
  await rm(layout.dist, { recursive: true, force: true });
  await mkdir(assetsDir(layout), { recursive: true });
  const [sharp, stripped, node] = await Promise.all([
    timed('sharp', () => packSharp(layout.root, assetsDir(layout))),
    timed('strip', () => stripNode(layout)),
    embeddedNodeVersion(layout),
    timed('web', () => buildWeb(layout)),
    timed('server', () => bundleServer(layout, version)),
    timed('workers', () => bundleWorkers(layout)),
  ]);
  await timed('warm-up', () => makeCodeCache(layout));
  await timed('blob', () => makeBlob(layout));
  await timed('inject', () => injectBlob(layout, stripped));
  const uncached = await timed('uncache', () => dropFromPageCache(executablePath(layout)));
  if (uncached) log(uncached);
  const intermediates = [stripped, join(layout.dist, 'sea-prep.blob'), join(layout.dist, PACK_ASSET), join(layout.dist, PACK_INDEX_ASSET), seaMainPath(layout), codeCachePath(layout)];
  await Promise.all(intermediates.map((f) => rm(f, { force: true })));
  const expected = { filemgr: version.version, node, sharp: sharp.sharpVersion, libvips: sharp.libvipsVersion };
  const versions = await timed('check', () => checkExecutable(executablePath(layout), expected));
  const executableBytes = (await stat(executablePath(layout))).size;
  const totalSeconds = (performance.now() - started) / 1000;
  return { ...version, steps, totalSeconds, executableBytes, versions };
}
