import { removeEventCommands } from '../../server/hooks/event-commands';
import type { Command } from '../command';
import { openExisting } from '../database';
import { formatEventCommands } from './cmds-ls';
import { indexArg, serviceCall } from './users-shared';

/** `filemgr cmds rm <event> <index> [index_end]`: one command or an inclusive range. */
export const cmdsRmCommand: Command = {
  name: 'cmds rm',
  summary: 'Remove the command at <index> of an event, or <index>..<index_end> (inclusive)',
  usage: '<event> <index> [index_end]',
  args: { min: 2, max: 3 },
  flags: [],
  async run(ctx) {
    const [event = ''] = ctx.args;
    const start = indexArg(ctx.args[1], 'index');
    const end = ctx.args[2] === undefined ? start : indexArg(ctx.args[2], 'index_end');
    const store = await openExisting(ctx.database);
    const list = await serviceCall(() => removeEventCommands(store, event, { start, end }));
    ctx.io.stdout.write(formatEventCommands({ [event]: list }));
    return 0;
  },
};
