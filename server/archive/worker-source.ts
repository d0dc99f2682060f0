/*
 * Source of the archive compression worker.
 *
 * Inside the single executable `require` only loads builtins, so the worker cannot be started
 * from a file: it is started from one self-contained code string (`new Worker(code, { eval:
 * true })`). What the build (build/) must do to embed that string:
 *
 *   1. Bundle the worker entry with esbuild, exactly the options of archiveWorkerBuildOptions():
 *        entryPoints: ['<repo>/server/archive/compress-worker.ts'],
 *        bundle: true, format: 'cjs', platform: 'node', target: 'node20',
 *        loader: { '.wasm': 'binary' },        // liblzma.wasm inlined as bytes
 *        logOverride: { 'empty-import-meta': 'silent' }   // node-liblzma's unused default loader
 *        write: false (or an outfile) and take the single output file's text.
 *   2. Store that text as the asset `archive-worker.js` (ARCHIVE_WORKER_ASSET): a SEA asset in
 *      the executable and dist/assets/archive-worker.js for `node dist/...`, so AssetSource
 *      .read('archive-worker.js') returns it.
 *   3. Mark `esbuild` external in the server bundle: the fallback below imports it dynamically
 *      and is never reached when the asset exists.
 *
 * When the asset is absent (tests, running from source) the worker is bundled on the fly with
 * esbuild's buildSync, once per process.
 */
import { resolve } from 'node:path';
import type { BuildOptions } from 'esbuild';
import type { AssetSource } from '../lib/assets';

/** Asset key of the bundled worker code. */
export const ARCHIVE_WORKER_ASSET = 'archive-worker.js';

/** The esbuild options that turn compress-worker.ts into the worker code string. */
export function archiveWorkerBuildOptions(repoRoot: string): BuildOptions {
  return {
    entryPoints: [resolve(repoRoot, 'server/archive/compress-worker.ts')],
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    loader: { '.wasm': 'binary' },
    logLevel: 'error',
    logOverride: { 'empty-import-meta': 'silent' },
    write: false,
  };
}

let bundledFromSource: Promise<string> | undefined;

async function bundleFromSource(repoRoot: string): Promise<string> {
  const esbuild = await import('esbuild');
  const result = esbuild.buildSync(archiveWorkerBuildOptions(repoRoot));
  const text = result.outputFiles?.[0]?.text;
  if (!text) throw new Error('bundling the archive worker produced no output');
  return text;
}

/**
 * A loader of the worker's code: the embedded asset when there is one, else the worker bundled
 * from source (repoRoot defaults to the working directory). Success is cached; a failure is
 * not, so a fixed source tree can be retried.
 */
export function archiveWorkerSource(assets?: AssetSource, repoRoot = process.cwd()): () => Promise<string> {
  let cached: Promise<string> | undefined;
  return () => {
    cached ??= loadSource(assets, repoRoot).catch((err: unknown) => {
      cached = undefined;
      throw err;
    });
    return cached;
  };
}

function loadSource(assets: AssetSource | undefined, repoRoot: string): Promise<string> {
  const asset = assets?.read(ARCHIVE_WORKER_ASSET);
  if (asset) return Promise.resolve(asset.toString('utf8'));
  bundledFromSource ??= bundleFromSource(repoRoot).catch((err: unknown) => {
    bundledFromSource = undefined;
    throw err;
  });
  return bundledFromSource;
}

let defaultSource: (() => Promise<string>) | undefined;

/** The loader used when none is given: the worker bundled from source (tests, running from source). */
export function defaultArchiveWorkerSource(): () => Promise<string> {
  defaultSource ??= archiveWorkerSource();
  return defaultSource;
}
