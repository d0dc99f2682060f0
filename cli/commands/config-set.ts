import type { Configuration } from '../../server/setup/config-transfer';
import type { Command } from '../command';
import { applyAuthFlags, applySettingsFlags } from '../config-apply';
import { formatConfig } from '../config-print';
import { openExisting } from '../database';
import { CONFIG_FLAGS } from '../flags';
import { applyServerFlags } from '../server-settings';
import { applyUserFlags } from '../user-flags';

/** `filemgr config set`: changes only the values given; works while the server runs. */
export const configSetCommand: Command = {
  name: 'config set',
  summary: 'Change the stored configuration: only the flags given change',
  description: [
    'Server flags also count as given when set through FILEMGR_*/FB_* variables or the config file.',
    'The auther is rebuilt only when an auth.* or recaptcha.* flag is given; values not given are',
    'kept from the stored auther.',
  ].join('\n'),
  args: { min: 0, max: 0 },
  flags: CONFIG_FLAGS,
  async run(ctx) {
    const store = await openExisting(ctx.database);
    const config = await store.update((db): Configuration => {
      applySettingsFlags(db.settings, ctx.flags, true);
      applyUserFlags(db.settings.defaults, ctx.flags, true);
      applyServerFlags(db.server, ctx.flags, { onlySet: true, cwd: ctx.io.cwd });
      const auth = applyAuthFlags({ method: db.settings.authMethod, auther: db.auther }, ctx.flags, true);
      db.settings.authMethod = auth.method;
      db.auther = auth.auther;
      return structuredClone({ settings: db.settings, server: db.server, auther: db.auther });
    });
    ctx.io.stdout.write(formatConfig(config));
    return 0;
  },
};
