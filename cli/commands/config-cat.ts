import type { Command } from '../command';
import { formatConfig } from '../config-print';
import { openExisting } from '../database';

/** `filemgr config cat`: prints the stored configuration (never the signing key). */
export const configCatCommand: Command = {
  name: 'config cat',
  summary: 'Print the stored configuration',
  args: { min: 0, max: 0 },
  flags: [],
  async run(ctx) {
    const store = await openExisting(ctx.database);
    ctx.io.stdout.write(formatConfig(store.data()));
    return 0;
  },
};
