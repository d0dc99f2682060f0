import { updateUser } from '../../server/accounts/user-admin';
import type { FlagDef } from '../flags';
import type { Command } from '../command';
import { openExisting } from '../database';
import { readNewPassword } from '../password-input';
import { applyUserFlags } from '../user-flags';
import { formatUsers, quotaArg, serviceCall, USER_COMMAND_FLAGS } from './users-shared';

const UPDATE_FLAGS: readonly FlagDef[] = [
  { name: 'password', short: 'p', kind: 'string', default: '', description: 'new password (checked like a new one; ends the user\'s sessions); - asks for it at a prompt or reads stdin' },
  { name: 'username', short: 'u', kind: 'string', default: '', description: 'new username' },
  ...USER_COMMAND_FLAGS,
];

/** `filemgr users update <id|username>`: only the flags given change anything. */
export const usersUpdateCommand: Command = {
  name: 'users update',
  summary: 'Change a user: name, password and any user flag given',
  description: 'Only flags given explicitly are written; the others keep their stored values.',
  usage: '<id|username>',
  args: { min: 1, max: 1 },
  flags: UPDATE_FLAGS,
  async run(ctx) {
    const store = await openExisting(ctx.database);
    const f = ctx.flags;
    const ref = ctx.args[0] ?? '';
    // "-" keeps the password out of the shell history: typed at a hidden prompt, or piped in.
    const password = f.string('password') === '-' ? await readNewPassword(ctx.io, ref, `users update ${ref} --password -`) : f.string('password');
    const user = await serviceCall(() => updateUser(store, ref, {
      username: f.string('username'),
      password,
      apply: (u) => {
        applyUserFlags(u, f, true);
        if (f.isSet('lockPassword')) u.lockPassword = f.bool('lockPassword');
        if (f.isSet('quota')) u.quota = quotaArg(f.string('quota'));
      },
    }));
    ctx.io.stdout.write(formatUsers([user]));
    return 0;
  },
};
