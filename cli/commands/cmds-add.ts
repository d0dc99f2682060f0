import { addEventCommand } from '../../server/hooks/event-commands';
import type { Command } from '../command';
import { openExisting } from '../database';
import { formatEventCommands } from './cmds-ls';
import { serviceCall } from './users-shared';

/** `filemgr cmds add <event> <command...>`: the words are joined by spaces. */
export const cmdsAddCommand: Command = {
  name: 'cmds add',
  summary: 'Add a command to run on a file event (e.g. before_upload)',
  usage: '<event> <command...>',
  args: { min: 2, max: Number.POSITIVE_INFINITY },
  flags: [],
  async run(ctx) {
    const [event = '', ...words] = ctx.args;
    const store = await openExisting(ctx.database);
    const list = await serviceCall(() => addEventCommand(store, event, words.join(' ')));
    ctx.io.stdout.write(formatEventCommands({ [event]: list }));
    return 0;
  },
};
