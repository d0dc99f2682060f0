import { join } from 'node:path';
import { exportUsers, importUsers, readExportedUsers } from '../../server/accounts/user-transfer';
import type { Command } from '../command';
import { openExisting } from '../database';
import { readDocumentArg, writeDocument } from '../documents';
import { serviceCall } from './users-shared';

/** `filemgr users import <file>`: filebrowser's (or our) export; bcrypt hashes keep working. */
export const usersImportCommand: Command = {
  name: 'users import',
  summary: 'Add users from a users export (filemgr\'s or filebrowser\'s)',
  description: 'Ids are kept. An id already present is an error unless --overwrite; a username held by another\nid is always an error. --replace deletes every existing user first, after writing users.backup.json.\nThe whole file is checked before anything is written.',
  usage: '<file>',
  args: { min: 1, max: 1 },
  flags: [
    { name: 'overwrite', kind: 'bool', default: false, description: 'replace users whose id already exists' },
    { name: 'replace', kind: 'bool', default: false, description: 'delete every existing user first (a backup is written)' },
  ],
  async run(ctx) {
    const users = await serviceCall(async () => readExportedUsers(await readDocumentArg(ctx, ctx.args[0] ?? '')));
    const store = await openExisting(ctx.database);
    const replace = ctx.flags.bool('replace');
    if (replace) await writeDocument(join(ctx.io.cwd, 'users.backup.json'), exportUsers(store.data()));
    await serviceCall(() => store.update((db) => importUsers(db, users, { overwrite: ctx.flags.bool('overwrite'), replace })));
    ctx.io.stdout.write(`imported ${users.length} user${users.length === 1 ? '' : 's'}\n`);
    return 0;
  },
};
