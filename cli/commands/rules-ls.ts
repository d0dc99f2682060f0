import { listRules } from '../../server/rules/rule-lists';
import type { Command } from '../command';
import { openExisting } from '../database';
import { formatRules, ruleOwner, RULE_OWNER_FLAGS } from './rules-shared';
import { serviceCall } from './users-shared';

/** `filemgr rules ls [-u name | -i id]`. */
export const rulesLsCommand: Command = {
  name: 'rules ls',
  summary: 'List the global rules, or a user\'s with --username/--id',
  args: { min: 0, max: 0 },
  flags: RULE_OWNER_FLAGS,
  async run(ctx) {
    const store = await openExisting(ctx.database);
    const owner = ruleOwner(ctx);
    ctx.io.stdout.write(formatRules(await serviceCall(() => listRules(store.data(), owner)), owner));
    return 0;
  },
};
