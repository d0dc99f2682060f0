import type { Command } from '../command';
import { openExisting } from '../database';
import { formatUsers } from './users-shared';

/** `filemgr users ls`: every user. */
export const usersLsCommand: Command = {
  name: 'users ls',
  summary: 'List every user',
  args: { min: 0, max: 0 },
  flags: [],
  async run(ctx) {
    const store = await openExisting(ctx.database);
    ctx.io.stdout.write(formatUsers([...store.data().users].sort((a, b) => a.id - b.id)));
    return 0;
  },
};
