import type { RuleOwner } from '../../server/rules/rule-lists';
import type { Rule } from '../../server/state/schema';
import type { CommandContext } from '../command';
import type { FlagDef } from '../flags';
import { UsageError } from '../io';

/** `-u/--username` and `-i/--id` select a user's rules; without them the global rules. */
export const RULE_OWNER_FLAGS: readonly FlagDef[] = [
  { name: 'username', short: 'u', kind: 'string', default: '', description: 'the user whose rules to use (default: the global rules)' },
  { name: 'id', short: 'i', kind: 'int', default: 0, min: 0, description: 'the id of the user whose rules to use' },
];

/** The owner the flags name. */
export function ruleOwner(ctx: CommandContext): RuleOwner {
  const username = ctx.flags.string('username');
  const id = ctx.flags.number('id');
  if (username !== '' && id !== 0) throw new UsageError('give either --username or --id, not both');
  if (username !== '') return { username };
  return id !== 0 ? { id } : {};
}

/** Rules as numbered lines: `(0) deny path: /private`. */
export function formatRules(rules: readonly Rule[], owner: RuleOwner): string {
  const title = owner.username ?? (owner.id !== undefined ? `user ${owner.id}` : 'global');
  const lines = rules.map((r, i) => `(${i}) ${r.allow ? 'allow' : 'deny'} ${r.regex ? `regex: ${r.regexp?.raw ?? ''}` : `path: ${r.path}`}`);
  return `Rules (${title}):\n${lines.length > 0 ? `${lines.join('\n')}\n` : '(none)\n'}`;
}
