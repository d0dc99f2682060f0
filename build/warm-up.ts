// Run by build/code-cache.ts under the embedded Node with the executable's V8 flags:
//   node warm-up.cjs <bundle> <cache out> <port> <root> <database>
// Starts the server from the bundle compiled exactly as build/sea-main.ts compiles it, waits for
// its first 200 on /health, and writes the code cache of every function the start compiled.
import { readFileSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { dirname } from 'node:path';
import { Script } from 'node:vm';
import { BUNDLE_ASSET, bundleScript, type BundleMain } from '../server/lib/code-cache';

const [bundlePath = '', cachePath = '', port = '', root = '', database = ''] = process.argv.slice(2);
const script = new Script(bundleScript(readFileSync(bundlePath, 'latin1')), { filename: BUNDLE_ASSET });
const bundleModule = { exports: {} };
process.argv = [process.argv[0] ?? 'node', bundlePath, '--port', port, '--root', root, '--database', database];
const main = script.runInThisContext() as BundleMain;
main(bundleModule.exports, require, bundleModule, bundlePath, dirname(bundlePath));

function poll(): void {
  get(`http://127.0.0.1:${port}/health`, (res) => {
    res.resume();
    res.on('end', () => {
      if (res.statusCode !== 200) return void setTimeout(poll, 10);
      writeFileSync(cachePath, script.createCachedData());
      process.exit(0);
    });
  }).on('error', () => void setTimeout(poll, 10));
}
poll();
