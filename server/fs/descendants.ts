import { AppError } from '../errors';
import type { PathGate, Target } from './scope';
import { walk } from './walk';

/**
 * Refuses (403) a delete, move or copy of a folder when the rules deny anything in it (api.md
 * §6.3): the folder and every descendant must be allowed, also at `mapped` (where a move or copy
 * puts them). Nothing to walk when no rule exists.
 */
export async function checkDescendants(gate: PathGate, target: Target, mapped?: (path: string) => string): Promise<void> {
  if (!gate.hasRules) return;
  const ok = (p: string): boolean => gate.descendantAllows(p) && (mapped === undefined || gate.descendantAllows(mapped(p)));
  if (!ok(target.path)) throw new AppError('forbidden');
  for await (const e of walk(gate, target, { unchecked: true })) {
    if (!ok(e.path)) throw new AppError('forbidden');
  }
}
