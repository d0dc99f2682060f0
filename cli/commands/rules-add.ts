import { addRule } from '../../server/rules/rule-lists';
import type { Command } from '../command';
import { openExisting } from '../database';
import { formatRules, ruleOwner, RULE_OWNER_FLAGS } from './rules-shared';
import { serviceCall } from './users-shared';

/** `filemgr rules add <path|regex> [-a] [-r]`: a deny rule unless --allow. */
export const rulesAddCommand: Command = {
  name: 'rules add',
  summary: 'Add a rule (deny unless --allow; a path prefix unless --regex)',
  usage: '<path|regex>',
  args: { min: 1, max: 1 },
  flags: [
    ...RULE_OWNER_FLAGS,
    { name: 'allow', short: 'a', kind: 'bool', default: false, description: 'allow instead of deny' },
    { name: 'regex', short: 'r', kind: 'bool', default: false, description: 'the argument is a regular expression (RE2 syntax, (?i) accepted)' },
  ],
  async run(ctx) {
    const store = await openExisting(ctx.database);
    const owner = ruleOwner(ctx);
    const rule = { expr: ctx.args[0] ?? '', allow: ctx.flags.bool('allow'), regex: ctx.flags.bool('regex') };
    ctx.io.stdout.write(formatRules(await serviceCall(() => addRule(store, owner, rule)), owner));
    return 0;
  },
};
