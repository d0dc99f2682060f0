import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type { Metafile, Plugin } from 'esbuild';
import { staticImportsOf } from './static-imports';

/**
 * esbuild's code splitting puts each part of the code in a chunk named by the exact set of entry
 * points (the entry and every `import()` target) that use it. With some 150 lazy modules, the
 * code the entry needs at start came out as 32 files, one for each set of lazy modules that
 * shares a piece of it: 32 requests on a cold load, six at a time over HTTP/1.1. esbuild has no
 * manual chunks, so this makes the sets equal instead: every lazy module also re-exports the
 * namespace of every module the start needs, so all of that code is used by every entry point
 * and lands in one chunk. The start code is loaded before any lazy module can run, so this costs
 * a lazy module nothing but the namespace objects.
 */

const CORE = 'filemgr:start-code';
const SCRIPT = /\.(?:[cm]?js|jsx|tsx?|json)$/;
const LOADERS = { '.js': 'js', '.mjs': 'js', '.cjs': 'js', '.jsx': 'jsx', '.ts': 'ts', '.tsx': 'tsx' } as const;

export interface StartCode {
  /** Source files (relative to the root) the entry loads at start, the entry module itself excepted. */
  modules: string[];
  /** The bytes of the entry and the chunks it imports statically, as the plain split made them. */
  bytes: number;
  /** The lazy modules (import() targets) written in JS or TS, relative to the root. */
  lazy: string[];
}

/** What a first, plainly split build says the start needs and which modules are lazy. */
export function startCodeOf(metafile: Metafile, entryOut: string, entrySource: string): StartCode {
  const outputs = [entryOut, ...staticImportsOf(metafile, entryOut)];
  const modules = new Set<string>();
  for (const out of outputs) {
    for (const [input, { bytesInOutput }] of Object.entries(metafile.outputs[out]?.inputs ?? {})) {
      // A file that put no code in the start is a barrel of re-exports (a package's index):
      // its namespace would make all it re-exports part of the start.
      if (input !== entrySource && bytesInOutput > 0 && SCRIPT.test(input) && !input.includes(':')) modules.add(input);
    }
  }
  const lazy = Object.values(metafile.outputs)
    .map((o) => o.entryPoint)
    // A module the start already loads statically needs no re-exports (and must not import itself).
    // Only the app's own modules: appending an export to a package's CommonJS file would turn it
    // into an ES module without its module.exports.
    .filter((e): e is string => e !== undefined && e !== entrySource && extname(e) in LOADERS && !modules.has(e) && !e.startsWith('node_modules/'));
  return { modules: [...modules].sort(), lazy, bytes: startBytes(metafile, entryOut) };
}

/** The bytes of the entry output and every chunk it imports statically. */
export function startBytes(metafile: Metafile, entryOut: string): number {
  return [entryOut, ...staticImportsOf(metafile, entryOut)].reduce((sum, out) => sum + (metafile.outputs[out]?.bytes ?? 0), 0);
}

/**
 * The re-exports make every export of a start module live, so a start module that is a barrel
 * (an index re-exporting a whole icon set, say) would pull all of it into the start chunk.
 * Fails the build when the start grew by more than 10 % plus 4 KiB over the plain split. Some
 * growth is expected: the parts of a start module that only lazy modules used come along (for
 * the app, 7 %: react-i18next's Trans and jotai's utilities, which the lazy screens load anyway).
 */
export function checkStartGrowth(before: number, after: number): void {
  if (after > before * 1.1 + 4096) {
    throw new Error(`the start chunk grew from ${before} to ${after} bytes when its modules were merged: a module the start imports re-exports more than it uses (import from the file itself instead of its index)`);
  }
}

/** The plugin of the second build: each lazy module re-exports the start code's namespaces. */
export function startChunkPlugin(root: string, code: StartCode): Plugin {
  const lazy = new Set(code.lazy.map((m) => join(root, m)));
  return {
    name: 'filemgr-start-chunk',
    setup(build) {
      build.onResolve({ filter: new RegExp(`^${CORE}$`) }, () => ({ path: CORE, namespace: CORE }));
      build.onLoad({ filter: /.*/, namespace: CORE }, () => ({
        resolveDir: root,
        loader: 'js',
        contents: code.modules.map((m, i) => `import * as m${i} from ${JSON.stringify(join(root, m))};\nexport { m${i} as __start${i} };`).join('\n'),
      }));
      build.onLoad({ filter: /\.[cm]?[jt]sx?$/ }, async (args) => {
        if (!lazy.has(args.path)) return undefined;
        const source = await readFile(args.path, 'utf8');
        return { contents: `${source}\nexport * from ${JSON.stringify(CORE)};\n`, loader: LOADERS[extname(args.path) as keyof typeof LOADERS] };
      });
    },
  };
}
