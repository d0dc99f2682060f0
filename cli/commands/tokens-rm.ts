import { revokeApiToken } from '../../server/accounts/api-tokens';
import { AppError } from '../../server/errors';
import type { Command } from '../command';
import { openExisting } from '../database';
import { serviceCall } from './users-shared';

/** `filemgr tokens rm <token-id>`: revokes an API token at once (a running server sees it on its next request). */
export const tokensRmCommand: Command = {
  name: 'tokens rm',
  summary: 'Revoke an API token by its id (see tokens ls)',
  usage: '<token-id>',
  args: { min: 1, max: 1 },
  flags: [],
  async run(ctx) {
    const store = await openExisting(ctx.database);
    const id = ctx.args[0] ?? '';
    await serviceCall(async () => {
      const record = (store.data().tokens ?? []).find((t) => t.id === id);
      if (!record) throw new AppError('not_found', `no token ${id}`);
      await revokeApiToken(store, record.userId, id);
    });
    ctx.io.stdout.write(`token ${id} revoked\n`);
    return 0;
  },
};
