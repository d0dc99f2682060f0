import { listEventCommands } from '../../server/hooks/event-commands';
import type { Command } from '../command';
import { openExisting } from '../database';
import { serviceCall } from './users-shared';

/** Numbered command lists by event: `before_upload:` then `  (0) echo hi`. */
export function formatEventCommands(commands: Record<string, string[]>): string {
  return Object.entries(commands)
    .map(([event, list]) => `${event}:\n${list.map((c, i) => `  (${i}) ${c}\n`).join('')}`)
    .join('');
}

/** `filemgr cmds ls [-e event]`. */
export const cmdsLsCommand: Command = {
  name: 'cmds ls',
  summary: 'List the commands run on file events',
  args: { min: 0, max: 0 },
  flags: [{ name: 'event', short: 'e', kind: 'string', default: '', description: 'only this event (e.g. before_upload)' }],
  async run(ctx) {
    const store = await openExisting(ctx.database);
    const event = ctx.flags.string('event');
    const commands = await serviceCall(() => listEventCommands(store.data(), event === '' ? undefined : event));
    ctx.io.stdout.write(formatEventCommands(commands));
    return 0;
  },
};
