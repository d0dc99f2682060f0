// The executable's main script (bundled to dist/sea-main.cjs by build/code-cache.ts): compiles the
// server bundle, an asset, with the code cache made by build/warm-up.ts, and runs it as the
// CommonJS module it was built as. A SEA's `require` loads builtins only, as the bundle expects.
import { Script } from 'node:vm';
import { withArenaLimit } from './arena-limit';

withArenaLimit();
import { onceBytes } from '../server/lib/assets';
import { BUNDLE_ASSET, CODE_CACHE_ASSET, CODE_CACHE_STATUS, bundleScript, type BundleMain } from '../server/lib/code-cache';

const script = new Script(bundleScript(onceBytes(BUNDLE_ASSET).toString('latin1')), { filename: BUNDLE_ASSET, cachedData: onceBytes(CODE_CACHE_ASSET) });
(globalThis as Record<symbol, unknown>)[CODE_CACHE_STATUS] = script.cachedDataRejected === true ? 'rejected' : 'used';
const main = script.runInThisContext() as BundleMain;
main(module.exports, require, module, __filename, __dirname);
