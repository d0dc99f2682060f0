import { AppError } from '../errors';
import type { Database, Rule } from '../state/schema';
import type { Store } from '../state/store';
import { validateRules } from './rules';

/** Whose rules: a user's by name or id, or the global ones when neither is given. */
export interface RuleOwner {
  username?: string;
  id?: number;
}

/** The rule list of `owner` inside `db` (a live reference when `db` is a store.update copy). */
function listOf(db: Database, owner: RuleOwner): Rule[] {
  if (owner.username === undefined && owner.id === undefined) return db.settings.rules;
  const user = db.users.find((u) => (owner.id !== undefined ? u.id === owner.id : u.username === owner.username));
  if (!user) throw new AppError('not_found', `no user ${owner.id ?? owner.username ?? ''}`);
  return user.rules;
}

/** The rules of `owner`, in evaluation order. */
export function listRules(db: Readonly<Database>, owner: RuleOwner): Rule[] {
  return structuredClone(listOf(db as Database, owner));
}

/** Appends a path or regex rule (a regex must compile, 400 otherwise); returns the new list. */
export function addRule(store: Store, owner: RuleOwner, rule: { expr: string; allow: boolean; regex: boolean }): Promise<Rule[]> {
  const next: Rule = rule.regex
    ? { regex: true, allow: rule.allow, path: '', regexp: { raw: rule.expr } }
    : { regex: false, allow: rule.allow, path: rule.expr, regexp: null };
  validateRules([next]);
  return store.update((db) => {
    const list = listOf(db, owner);
    list.push(next);
    return structuredClone(list);
  });
}

/** Removes the rules `start..end` (inclusive, 0-based); an index out of range is refused. */
export function removeRules(store: Store, owner: RuleOwner, range: { start: number; end: number }): Promise<Rule[]> {
  return store.update((db) => {
    const list = listOf(db, owner);
    const { start, end } = range;
    if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end < start || end >= list.length) {
      throw new AppError('bad_request', `index out of range: there are ${list.length} rules`);
    }
    list.splice(start, end - start + 1);
    return structuredClone(list);
  });
}
