import { createApiToken } from '../../server/accounts/api-tokens';
import { findUser } from '../../server/accounts/user-admin';
import type { Command } from '../command';
import { openExisting } from '../database';
import { permsFromList } from './tokens-shared';
import { serviceCall } from './users-shared';

/** `filemgr tokens add <id|username> <name>`: prints the new API token, the only time it is shown. */
export const tokensAddCommand: Command = {
  name: 'tokens add',
  summary: 'Create an API token for a user and print it (shown only this once)',
  description: [
    'Prints the token alone on standard output, so TOKEN=$(filemgr tokens add alice ci) works. Use it',
    'as "Authorization: Bearer <token>", as X-Auth, or as the WebDAV password. Its rights are the',
    'permissions given with --perm (all of the user\'s by default), never more than the user holds.',
  ].join('\n'),
  usage: '<id|username> <name>',
  args: { min: 2, max: 2 },
  flags: [
    { name: 'expires', kind: 'int', default: 0, min: 0, max: 36500, description: 'days until the token expires; 0 = never' },
    { name: 'perm', kind: 'list', default: [], description: 'the token\'s permissions, comma-separated (admin,execute,create,rename,modify,delete,share,download); default: the user\'s' },
  ],
  async run(ctx) {
    const store = await openExisting(ctx.database);
    const [ref = '', name = ''] = ctx.args;
    const perm = permsFromList(ctx.flags.list('perm'));
    const { token } = await serviceCall(() => {
      const owner = findUser(store.data(), ref);
      return createApiToken(store, owner, { name, expiresInDays: ctx.flags.number('expires'), perm, nowMs: Date.now() });
    });
    ctx.io.stdout.write(`${token}\n`);
    return 0;
  },
};
