import { removeRules } from '../../server/rules/rule-lists';
import type { Command } from '../command';
import { openExisting } from '../database';
import { formatRules, ruleOwner, RULE_OWNER_FLAGS } from './rules-shared';
import { indexArg, serviceCall } from './users-shared';

/** `filemgr rules rm <index> [index_end]`: removes one rule or an inclusive range. */
export const rulesRmCommand: Command = {
  name: 'rules rm',
  summary: 'Remove the rule at <index>, or the rules <index>..<index_end> (inclusive)',
  usage: '<index> [index_end]',
  args: { min: 1, max: 2 },
  flags: RULE_OWNER_FLAGS,
  async run(ctx) {
    const start = indexArg(ctx.args[0], 'index');
    const end = ctx.args[1] === undefined ? start : indexArg(ctx.args[1], 'index_end');
    const store = await openExisting(ctx.database);
    const owner = ruleOwner(ctx);
    ctx.io.stdout.write(formatRules(await serviceCall(() => removeRules(store, owner, { start, end })), owner));
    return 0;
  },
};
