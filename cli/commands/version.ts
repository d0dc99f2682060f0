import { assetReads } from '../../server/lib/assets';
import { codeCacheStatus } from '../../server/lib/code-cache';
import { loadSharp } from '../../server/lib/sharp-loader';
import { COMMIT, VERSION } from '../../server/version';
import type { Command } from '../command';
import type { FlagDef } from '../flags';
import { CliError } from '../io';

const VERBOSE: FlagDef = { name: 'verbose', short: 'v', kind: 'bool', default: false, description: 'also print the versions of Node.js, sharp and libvips, whether the code cache was used, and where start-up read its assets' };

/** `filemgr version [--verbose]`. */
export const versionCommand: Command = {
  name: 'version',
  summary: 'Print the version',
  args: { min: 0, max: 0 },
  flags: [VERBOSE],
  async run(ctx) {
    ctx.io.stdout.write(`filemgr v${VERSION}/${COMMIT}\n`);
    if (!ctx.flags.bool('verbose')) return 0;
    ctx.io.stdout.write(`Node.js ${process.version}\n`);
    let versions: { sharp?: string; vips?: string };
    try {
      versions = (await loadSharp()).versions;
    } catch (err) {
      throw new CliError(`cannot load the image library: ${(err as Error).message}`);
    }
    ctx.io.stdout.write(`sharp ${versions.sharp ?? 'unknown'}\nlibvips ${versions.vips ?? 'unknown'}\ncode cache ${codeCacheStatus()}\nassets ${assetReads()}\n`);
    return 0;
  },
};
