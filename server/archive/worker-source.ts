/*
 * Source of the archive compression worker (see server/lib/worker-code.ts for how a worker's
 * code reaches the single executable). Its bundle inlines liblzma.wasm as bytes and silences
 * node-liblzma's unused default loader.
 */
import type { BuildOptions } from 'esbuild';
import type { AssetSource } from '../lib/assets';
import { workerBuildOptions, workerCode, type WorkerBundle } from '../lib/worker-code';

/** Asset key of the bundled worker code. */
export const ARCHIVE_WORKER_ASSET = 'archive-worker.js';

const ARCHIVE_WORKER: WorkerBundle = {
  asset: ARCHIVE_WORKER_ASSET,
  entry: 'server/archive/compress-worker.ts',
  options: { loader: { '.wasm': 'binary' }, logOverride: { 'empty-import-meta': 'silent' } },
};

/** The esbuild options that turn compress-worker.ts into the worker code string. */
export function archiveWorkerBuildOptions(repoRoot: string): BuildOptions {
  return workerBuildOptions(ARCHIVE_WORKER, repoRoot);
}

/**
 * A loader of the worker's code: the embedded asset when there is one, else the worker bundled
 * from source (repoRoot defaults to the working directory). Success is cached; a failure is
 * not, so a fixed source tree can be retried.
 */
export function archiveWorkerSource(assets?: AssetSource, repoRoot = process.cwd()): () => Promise<string> {
  return workerCode(ARCHIVE_WORKER, assets, repoRoot);
}

let defaultSource: (() => Promise<string>) | undefined;

/** The loader used when none is given: the worker bundled from source (tests, running from source). */
export function defaultArchiveWorkerSource(): () => Promise<string> {
  defaultSource ??= archiveWorkerSource();
  return defaultSource;
}
