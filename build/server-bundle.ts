import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { COMMON_PASSWORDS_ASSET, sortedList } from '../server/accounts/common-passwords';
import { ARCHIVE_WORKER_ASSET, archiveWorkerBuildOptions } from '../server/archive/worker-source';
import { INDEX_WORKER } from '../server/index/build-protocol';
import { workerBuildOptions } from '../server/lib/worker-code';
import { assetsDir, serverBundlePath, type BuildLayout } from './layout';
import { versionDefines, type BuildVersion } from './versions';

// Builtins that libraries require at load time but use only for features filemgr may not need:
// fastify's server.js loads http2 and https for every server, ws loads https and tls for its
// client side. Measured on the embedded Node, http2 alone adds 9 MB of RSS and https 5 MB.
const LAZY_BUILTINS = /^(node:)?(http2|https|tls)$/;

/**
 * Those requires, from node_modules only, get an object that loads the builtin on first use of
 * any property: `https.createServer(...)` still works, and a server without TLS never loads it.
 */
const lazyBuiltins: Plugin = {
  name: 'lazy-builtins',
  setup(b) {
    b.onResolve({ filter: LAZY_BUILTINS }, (args) =>
      args.importer.includes('/node_modules/') ? { path: args.path.replace(/^node:/, ''), namespace: 'lazy-builtin' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, (args) => ({
      contents: `let m; const load = () => (m ??= require('node:${args.path}'));\nmodule.exports = new Proxy({}, { get: (_, k) => load()[k], has: (_, k) => k in load(), ownKeys: () => Reflect.ownKeys(load()), getOwnPropertyDescriptor: (_, k) => { const d = Reflect.getOwnPropertyDescriptor(load(), k); if (d) d.configurable = true; return d; } });\n`,
      loader: 'js',
    }));
  },
};

const PASSWORD_JSON = /common-passwords\.json$/;

/** The common-password JSON stays out of the bundle: the build ships it as a sorted asset. */
const passwordListAsAsset: Plugin = {
  name: 'password-list-as-asset',
  setup(b) {
    b.onResolve({ filter: PASSWORD_JSON }, (args) => ({ path: args.path, namespace: 'password-list' }));
    b.onLoad({ filter: /.*/, namespace: 'password-list' }, () => ({
      contents: `throw new Error('the common-password list is the asset ${COMMON_PASSWORDS_ASSET} of this build');\n`,
      loader: 'js',
    }));
  },
};

/** Writes the common-password list as the asset server/accounts/common-passwords.ts searches. */
export async function writePasswordAsset(layout: BuildLayout): Promise<void> {
  const json = JSON.parse(await readFile(join(layout.root, 'server/accounts/common-passwords.json'), 'utf8')) as { passwords: string };
  await writeFile(join(assetsDir(layout), COMMON_PASSWORDS_ASSET), sortedList(json.passwords));
}

/**
 * Bundles the server and CLI into one CommonJS file for Node 20+ (a SEA's main script must be
 * CJS and complete: its `require` loads builtins only). sharp stays external (loaded from
 * node_modules from source, extracted from the executable otherwise); esbuild is only the
 * archive worker's fallback when its asset is missing.
 */
export async function bundleServer(layout: BuildLayout, version: BuildVersion): Promise<void> {
  if (!existsSync(layout.serverEntry)) throw new Error(`the server entry ${layout.serverEntry} does not exist`);
  await build({
    absWorkingDir: layout.root,
    entryPoints: [layout.serverEntry],
    outfile: serverBundlePath(layout),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['sharp', 'esbuild', 'bufferutil', 'utf-8-validate'],
    plugins: [lazyBuiltins, passwordListAsAsset],
    loader: { '.wasm': 'binary' },
    alias: { '@contract': join(layout.root, 'server/contract') },
    define: {
      // Stop ws from probing its optional native addons, which a SEA's require cannot load.
      'process.env.WS_NO_BUFFER_UTIL': '"1"',
      'process.env.WS_NO_UTF_8_VALIDATE': '"1"',
      ...versionDefines(version),
    },
    logOverride: { 'empty-import-meta': 'silent' },
    // V8 keeps the whole source in memory (lazy compilation needs it): minified and ASCII-only it
    // is half the size, and half again a two-byte string would be. keepNames keeps class and
    // function names that errors and fastify's plugin checks print.
    minify: true,
    keepNames: true,
    charset: 'ascii',
    legalComments: 'eof',
    logLevel: 'warning',
  });
  await writePasswordAsset(layout);
}

/** The workers' code as assets (server/lib/worker-code.ts): the archive worker and the index builder. */
export async function bundleWorkers(layout: BuildLayout): Promise<void> {
  const workers = [
    { asset: ARCHIVE_WORKER_ASSET, options: archiveWorkerBuildOptions(layout.root) },
    { asset: INDEX_WORKER.asset, options: workerBuildOptions(INDEX_WORKER, layout.root) },
  ];
  await Promise.all(workers.map(async ({ asset, options }) => {
    const result = await build({ ...options, absWorkingDir: layout.root, write: false });
    const text = result.outputFiles?.[0]?.text;
    if (!text) throw new Error(`bundling the worker ${asset} produced no output`);
    await writeFile(join(assetsDir(layout), asset), text);
  }));
}
