import { execFile } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { CODE_CACHE_ASSET } from '../server/lib/code-cache';
import { freePort } from './free-port';
import { nodeBasePath, serverBundlePath, type BuildLayout } from './layout';

const run = promisify(execFile);

/**
 * The V8 flags the executable starts with (sea-config execArgv); the warm-up must use the same.
 * A 1 MB young generation: with 8 MB, a 1 GiB tus upload ran 46-73 full collections (1.0-1.4 s
 * of GC threads' CPU), with 1 MB one; idle RSS falls by 7 MB. With a 1 MB young generation more
 * short-lived objects reach the old one, which V8 let grow to up to 4x its live size: one GET of
 * a 100,000-entry folder peaked at 197-276 MiB. Growing it by at most 2x holds that at 163-182
 * MiB (1.5x: 152-155 MiB, but uploads slowed by the extra full collections).
 * No incremental marking: with it, about one server start in three fell into a state where V8
 * started marking every ~50 ms with half the old generation's limit still free, and a 20,000-file
 * tar then ran ~37 full collections instead of 0-2 and took 1.6x as long (290-320 against
 * 160-200 ms). A full collection is now one pause, which at this heap's size (20-30 MB idle) is a
 * few milliseconds. Start-up, the listing peak and uploads measured the same with and without.
 *
 * No V8 heap allocation off the main thread: concurrent Sparkplug and Maglev build their code
 * objects (and Maglev its deoptimization data) on V8's worker threads. Without incremental marking,
 * such an allocation past the old generation's limit cannot start marking, so the worker asks the
 * main thread for a collection and waits for it (CollectionBarrier::AwaitCollectionBackground).
 * A main thread in process.exit() never collects again: it joins those workers
 * (NodePlatform::Shutdown) and the executable hung, about one `version --verbose` in ten from a
 * fresh HOME on a busy machine (nodejs/node#54918 is the same cycle). With these flags Maglev
 * still compiles on the workers; the main thread allocates what goes on the heap, and Sparkplug
 * (a single pass over the bytecode) compiles there in batches.
 */
export const SEA_EXEC_ARGV: readonly string[] = [
  '--max-semi-space-size=1',
  '--heap-growing-percent=100',
  '--no-incremental-marking',
  '--no-concurrent-sparkplug',
  '--no-maglev-build-code-on-background',
  '--no-maglev-deopt-data-on-background',
];

/** dist/sea-main.cjs: the executable's main script (build/sea-main.ts). */
export function seaMainPath(layout: BuildLayout): string {
  return join(layout.dist, 'sea-main.cjs');
}

/** dist/filemgr.cache: the code cache of the server bundle after a warm-up start. */
export function codeCachePath(layout: BuildLayout): string {
  return join(layout.dist, CODE_CACHE_ASSET);
}

function bundleScriptFile(layout: BuildLayout, entry: string, outfile: string): Promise<unknown> {
  return build({ absWorkingDir: layout.root, entryPoints: [entry], outfile, bundle: true, platform: 'node', format: 'cjs', target: 'node20', logLevel: 'warning' });
}

/**
 * Bundles the executable's main script, then starts the server bundle once under the embedded
 * Node (from a scratch root and database) and keeps the code cache of that start. Needs the
 * server bundle and dist/assets, so the start takes the path a real one takes.
 */
export async function makeCodeCache(layout: BuildLayout): Promise<void> {
  const scratch = await mkdtemp(join(tmpdir(), 'filemgr-warm-up-'));
  try {
    const warmUp = join(scratch, 'warm-up.cjs');
    await Promise.all([
      bundleScriptFile(layout, join(layout.root, 'build/sea-main.ts'), seaMainPath(layout)),
      bundleScriptFile(layout, join(layout.root, 'build/warm-up.ts'), warmUp),
    ]);
    const args = [serverBundlePath(layout), codeCachePath(layout), String(await freePort()), scratch, join(scratch, 'filemgr.json')];
    await run(nodeBasePath(layout), [...SEA_EXEC_ARGV, warmUp, ...args], { cwd: scratch, env: { ...process.env, HOME: scratch }, timeout: 60_000, maxBuffer: 16 << 20 }).catch(
      (err: Error & { stdout?: string; stderr?: string }) => {
        throw new Error(`the warm-up start for the code cache failed: ${err.message}\n${err.stdout ?? ''}${err.stderr ?? ''}`);
      },
    );
    if ((await stat(codeCachePath(layout))).size === 0) throw new Error('the warm-up start wrote an empty code cache');
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
