import { findUser } from '../../server/accounts/user-admin';
import type { Command } from '../command';
import { openExisting } from '../database';
import { formatUsers, serviceCall } from './users-shared';

/** `filemgr users find <id|username>`: a number is an id, anything else a name. */
export const usersFindCommand: Command = {
  name: 'users find',
  summary: 'Show one user by id or username',
  usage: '<id|username>',
  args: { min: 1, max: 1 },
  flags: [],
  async run(ctx) {
    const store = await openExisting(ctx.database);
    const user = await serviceCall(() => findUser(store.data(), ctx.args[0] ?? ''));
    ctx.io.stdout.write(formatUsers([user]));
    return 0;
  },
};
