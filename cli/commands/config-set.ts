import { redactDatabase } from '../../server/state/database-kind';
import type { Command, CommandContext } from '../command';
import { applyAuthFlags, applySettingsFlags } from '../config-apply';
import { openExisting } from '../database';
import { CONFIG_FLAGS } from '../flags';
import { applyServerFlags } from '../server-settings';
import { applyUserFlags } from '../user-flags';

/** The flags that count as given: on the command line, or (server flags) from the environment or config file. */
function givenFlags(ctx: CommandContext): string[] {
  return CONFIG_FLAGS.filter((d) => ctx.flags.isSet(d.name)).map((d) => `--${d.name}`);
}

/** `filemgr config set`: changes only the values given; works while the server runs. */
export const configSetCommand: Command = {
  name: 'config set',
  summary: 'Change the stored configuration: only the flags given change',
  description: [
    'Server flags also count as given when set through FILEMGR_*/FB_* variables or the config file.',
    'The auth method settings are rebuilt only when an auth.* or recaptcha.* flag is given; values',
    'not given are kept from the stored ones. Prints one line naming what changed; filemgr config cat',
    'prints the whole configuration.',
  ].join('\n'),
  args: { min: 0, max: 0 },
  flags: CONFIG_FLAGS,
  async run(ctx) {
    const store = await openExisting(ctx.database);
    const given = givenFlags(ctx);
    if (given.length === 0) {
      ctx.io.stdout.write(`Nothing to change: no flag given, ${redactDatabase(ctx.database)} left as it was\n`);
      return 0;
    }
    await store.update((db) => {
      applySettingsFlags(db.settings, ctx.flags, true);
      applyUserFlags(db.settings.defaults, ctx.flags, true);
      applyServerFlags(db.server, ctx.flags, { onlySet: true, cwd: ctx.io.cwd });
      const auth = applyAuthFlags({ method: db.settings.authMethod, auther: db.auther }, ctx.flags, true);
      db.settings.authMethod = auth.method;
      db.auther = auth.auther;
    });
    ctx.io.stdout.write(`Saved ${given.join(', ')} to ${redactDatabase(ctx.database)} (filemgr config cat prints the whole configuration)\n`);
    return 0;
  },
};
