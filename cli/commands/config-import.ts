import { importConfig } from '../../server/setup/config-transfer';
import { emptyDatabase } from '../../server/state/initial';
import type { Command } from '../command';
import { formatConfig } from '../config-print';
import { openOrCreate } from '../database';
import { readDocumentArg } from '../documents';

/** `filemgr config import <file>`: replaces the configuration, keeping the database's key. */
export const configImportCommand: Command = {
  name: 'config import',
  summary: 'Replace the configuration with one from config export (filemgr\'s or filebrowser\'s)',
  description: 'Settings, server values and the auth method configuration are replaced; users and shares\nstay. The database keeps its own signing key; a new database gets a fresh one.',
  usage: '<file>',
  args: { min: 1, max: 1 },
  flags: [],
  async run(ctx) {
    const data = await readDocumentArg(ctx, ctx.args[0] ?? '');
    // Checked before the database is touched: a bad file changes nothing.
    importConfig(data, '');
    const { store, created } = await openOrCreate(ctx.database, () => {
      const db = emptyDatabase();
      return { ...db, ...importConfig(data, db.settings.key) };
    });
    if (!created) {
      await store.update((db) => {
        Object.assign(db, importConfig(data, db.settings.key));
      });
    }
    ctx.io.stdout.write(formatConfig(store.data()));
    return 0;
  },
};
