import type { PathGate, Target } from '../fs/scope';
import type { UserRecord } from '../state/schema';
import type { HookContext } from './hooks';

/** The hooks' view of an operation: real paths, the stored scope, the user name (api.md §9). */
export function hookContext(gate: PathGate, user: UserRecord, t: { file: Target; destination?: Target }): HookContext {
  return { file: t.file.lexical, destination: t.destination?.lexical ?? gate.root, scope: user.scope, username: user.username };
}
