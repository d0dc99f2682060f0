import type { ServerConfig } from '../../config';
import type { GateFactory } from '../../fs/gates';
import type { PathGate, Target } from '../../fs/scope';
import type { CreateModes } from '../../fs/write';
import type { HookContext, HookRunner } from '../../hooks/hooks';
import type { UserRecord } from '../../state/schema';
import type { Store } from '../../state/store';

/** What the resources service needs; app.ts composes it. */
export interface ResourcesDeps {
  store: Store;
  config: Pick<ServerConfig, 'typeDetectionByHeader'>;
  gates: GateFactory;
  hooks: HookRunner;
  /** Drops cached previews of a real path (overwrite, rename, delete; api.md §3.12). */
  previews?: { invalidate(realPath: string): Promise<void> };
}

/** The signed-in user's gate, with the current settings. */
export function gateOf(deps: ResourcesDeps, user: UserRecord): Promise<PathGate> {
  return deps.gates.forUser(user, deps.store.data().settings);
}

/** The hooks' view of an operation: real paths, the stored scope, the user name (api.md §9). */
export function hookContext(gate: PathGate, user: UserRecord, t: { file: Target; destination?: Target }): HookContext {
  return { file: t.file.lexical, destination: t.destination?.lexical ?? gate.root, scope: user.scope, username: user.username };
}

/** settings.fileMode / dirMode, with upstream's defaults for 0 (api.md §7). */
export function modesOf(deps: ResourcesDeps): CreateModes {
  const s = deps.store.data().settings;
  return { fileMode: s.fileMode || 0o640, dirMode: s.dirMode || 0o750 };
}
