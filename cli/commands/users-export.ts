import { resolve } from 'node:path';
import { exportUsers } from '../../server/accounts/user-transfer';
import type { Command } from '../command';
import { openExisting } from '../database';
import { writeDocument } from '../documents';

/** `filemgr users export <file.json|.yaml>`: filebrowser's format, password hashes included. */
export const usersExportCommand: Command = {
  name: 'users export',
  summary: 'Write every user, password hashes included, to a JSON or YAML file',
  usage: '<file>',
  args: { min: 1, max: 1 },
  flags: [],
  async run(ctx) {
    const store = await openExisting(ctx.database);
    await writeDocument(resolve(ctx.io.cwd, ctx.args[0] ?? ''), exportUsers(store.data()));
    return 0;
  },
};
