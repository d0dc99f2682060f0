import { redactDatabase } from '../../server/state/database-kind';
import type { Configuration } from '../../server/setup/config-transfer';
import { defaultServerSettings, emptyDatabase } from '../../server/state/initial';
import type { Database } from '../../server/state/schema';
import type { Command } from '../command';
import { applyAuthFlags, applySettingsFlags } from '../config-apply';
import { formatConfig } from '../config-print';
import { databaseExists, openOrCreate } from '../database';
import { CONFIG_FLAGS } from '../flags';
import { CliError } from '../io';
import { applyServerFlags } from '../server-settings';
import { applyUserFlags } from '../user-flags';
import type { FlagValues } from '../values';

/** A new database from the config flags, every flag at its given or default value; no users. */
function initialDatabase(flags: FlagValues, cwd: string): Database {
  const db = emptyDatabase('json');
  db.settings.hideLoginButton = false;
  applySettingsFlags(db.settings, flags, false);
  applyUserFlags(db.settings.defaults, flags, false);
  db.server = defaultServerSettings();
  applyServerFlags(db.server, flags, { onlySet: false, cwd });
  const auth = applyAuthFlags({ method: 'json', auther: { recaptcha: null } }, flags, false);
  db.settings.authMethod = auth.method;
  db.auther = auth.auther;
  return db;
}

/** `filemgr config init`: creates a database from flags (fails when one exists). */
export const configInitCommand: Command = {
  name: 'config init',
  summary: 'Create a new database with the configuration given by flags',
  description: 'Every flag applies, given or default. No user is created: add one with filemgr users add.',
  args: { min: 0, max: 0 },
  flags: CONFIG_FLAGS,
  async run(ctx) {
    if (await databaseExists(ctx.database)) throw new CliError(`the database ${redactDatabase(ctx.database)} already exists; change it with filemgr config set`);
    // Built (and validated) before anything touches the disk.
    const db = initialDatabase(ctx.flags, ctx.io.cwd);
    const { store, created } = await openOrCreate(ctx.database, () => db);
    if (!created) throw new CliError(`the database ${redactDatabase(ctx.database)} already exists; change it with filemgr config set`);
    const config: Configuration = store.data();
    ctx.io.stdout.write(formatConfig(config));
    return 0;
  },
};
