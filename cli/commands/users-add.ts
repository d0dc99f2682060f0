import { addUser } from '../../server/accounts/user-admin';
import type { Command } from '../command';
import { openExisting } from '../database';
import { applyUserFlags } from '../user-flags';
import { formatUsers, serviceCall, storedRoot, USER_COMMAND_FLAGS } from './users-shared';

/** `filemgr users add <username> <password>`: the settings' defaults, overridden by the flags given. */
export const usersAddCommand: Command = {
  name: 'users add',
  summary: 'Create a user (password checked against the minimum length and the common-password list)',
  usage: '<username> <password>',
  args: { min: 2, max: 2 },
  flags: USER_COMMAND_FLAGS,
  async run(ctx) {
    const store = await openExisting(ctx.database);
    const fields = structuredClone(store.data().settings.defaults);
    applyUserFlags(fields, ctx.flags, true);
    const [username = '', password = ''] = ctx.args;
    const user = await serviceCall(() => addUser(store, storedRoot(store, ctx), { username, password, fields, lockPassword: ctx.flags.bool('lockPassword') }));
    ctx.io.stdout.write(formatUsers([user]));
    return 0;
  },
};
