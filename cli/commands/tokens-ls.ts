import { listApiTokens } from '../../server/accounts/api-tokens';
import { findUser } from '../../server/accounts/user-admin';
import type { Command } from '../command';
import { openExisting } from '../database';
import { formatTokens } from './tokens-shared';
import { serviceCall } from './users-shared';

/** `filemgr tokens ls [id|username]`: every API token, or one user's (never the secrets). */
export const tokensLsCommand: Command = {
  name: 'tokens ls',
  summary: 'List the API tokens of every user, or of one',
  usage: '[id|username]',
  args: { min: 0, max: 1 },
  flags: [],
  async run(ctx) {
    const store = await openExisting(ctx.database);
    const db = store.data();
    const ref = ctx.args[0];
    const tokens = ref === undefined
      ? [...(db.tokens ?? [])].sort((a, b) => a.userId - b.userId || a.created - b.created)
      : await serviceCall(() => listApiTokens(db, findUser(db, ref).id));
    ctx.io.stdout.write(formatTokens(db, tokens));
    return 0;
  },
};
