import { removeUser } from '../../server/accounts/user-admin';
import type { Command } from '../command';
import { openExisting } from '../database';
import { serviceCall } from './users-shared';

/** `filemgr users rm <id|username>`: the last administrator is never deleted. */
export const usersRmCommand: Command = {
  name: 'users rm',
  summary: 'Delete a user by id or username',
  usage: '<id|username>',
  args: { min: 1, max: 1 },
  flags: [],
  async run(ctx) {
    const store = await openExisting(ctx.database);
    const user = await serviceCall(() => removeUser(store, ctx.args[0] ?? ''));
    ctx.io.stdout.write(`user ${user.username} (id ${user.id}) deleted\n`);
    return 0;
  },
};
