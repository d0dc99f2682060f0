/*
 * The code of a worker thread, as one self-contained string.
 *
 * Inside the single executable `require` only loads builtins, so a worker cannot be started from
 * a file: it is started from a code string (`new Worker(code, { eval: true })`). The build
 * (build/server-bundle.ts) bundles each worker's entry with `workerBuildOptions` and stores the
 * text as an asset (a SEA asset in the executable, dist/assets/<name> beside `node dist/...`).
 * When the asset is absent (tests, running from source) the entry is bundled on the fly with
 * esbuild, once per process; `esbuild` is external in the server bundle and this fallback is
 * never reached in a build.
 */
import { resolve } from 'node:path';
import type { BuildOptions } from 'esbuild';
import type { AssetSource } from './assets';

/** A worker: its asset name and its entry file relative to the repository, plus extra esbuild options. */
export interface WorkerBundle {
  asset: string;
  entry: string;
  options?: Omit<BuildOptions, 'entryPoints'>;
}

/** The esbuild options that turn a worker's entry into its code string. */
export function workerBuildOptions(bundle: WorkerBundle, repoRoot: string): BuildOptions {
  return {
    entryPoints: [resolve(repoRoot, bundle.entry)],
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    logLevel: 'error',
    write: false,
    ...bundle.options,
  };
}

const bundledFromSource = new Map<string, Promise<string>>();

async function bundleFromSource(bundle: WorkerBundle, repoRoot: string): Promise<string> {
  const esbuild = await import('esbuild');
  const result = esbuild.buildSync(workerBuildOptions(bundle, repoRoot));
  const text = result.outputFiles?.[0]?.text;
  if (!text) throw new Error(`bundling the worker ${bundle.entry} produced no output`);
  return text;
}

function loadSource(bundle: WorkerBundle, assets: AssetSource | undefined, repoRoot: string): Promise<string> {
  const asset = assets?.read(bundle.asset);
  if (asset) return Promise.resolve(asset.toString('utf8'));
  const key = `${repoRoot}\0${bundle.entry}`;
  let pending = bundledFromSource.get(key);
  if (!pending) {
    pending = bundleFromSource(bundle, repoRoot).catch((err: unknown) => {
      bundledFromSource.delete(key);
      throw err;
    });
    bundledFromSource.set(key, pending);
  }
  return pending;
}

/**
 * A loader of a worker's code: the embedded asset when there is one, else the worker bundled
 * from source (repoRoot defaults to the working directory). Success is cached; a failure is
 * not, so a fixed source tree can be retried.
 */
export function workerCode(bundle: WorkerBundle, assets?: AssetSource, repoRoot = process.cwd()): () => Promise<string> {
  let cached: Promise<string> | undefined;
  return () => {
    cached ??= loadSource(bundle, assets, repoRoot).catch((err: unknown) => {
      cached = undefined;
      throw err;
    });
    return cached;
  };
}
