import { addUser } from '../../server/accounts/user-admin';
import type { Command } from '../command';
import { openExisting } from '../database';
import { readNewPassword } from '../password-input';
import { applyUserFlags } from '../user-flags';
import { formatUsers, quotaArg, serviceCall, storedRoot, USER_COMMAND_FLAGS } from './users-shared';

/**
 * `filemgr users add <username> [password]`: the settings' defaults, overridden by the flags
 * given. Without the password argument it is read from a hidden prompt or from stdin.
 */
export const usersAddCommand: Command = {
  name: 'users add',
  summary: 'Create a user (password checked against the minimum length and the common-password list)',
  description: [
    'Without <password> it is asked for twice at a prompt that does not echo, or, when standard input',
    'is not a terminal, read from its first line: a password given as an argument stays in the shell',
    'history and is visible to other users in the process list.',
  ].join('\n'),
  usage: '<username> [password]',
  args: { min: 1, max: 2 },
  flags: USER_COMMAND_FLAGS,
  async run(ctx) {
    const store = await openExisting(ctx.database);
    const [username = '', given] = ctx.args;
    const quota = quotaArg(ctx.flags.string('quota'));
    const password = given ?? await readNewPassword(ctx.io, username, `users add ${username}`);
    const fields = structuredClone(store.data().settings.defaults);
    applyUserFlags(fields, ctx.flags, true);
    const user = await serviceCall(() => addUser(store, storedRoot(store, ctx), { username, password, fields, lockPassword: ctx.flags.bool('lockPassword'), quota }));
    ctx.io.stdout.write(formatUsers([user]));
    return 0;
  },
};
