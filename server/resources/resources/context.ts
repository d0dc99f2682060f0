import type { ServerConfig } from '../../config';
import type { GateFactory } from '../../fs/gates';
import type { PathGate, Target } from '../../fs/scope';
import type { CreateModes } from '../../fs/write';
import type { HookRunner } from '../../hooks/hooks';
import type { QuotaGate } from '../../quota/admit';
import { createModes } from '../../state/modes';
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
  /** The recycle bin DELETE moves items into while it is on (resources/trash, beyond.md §3). */
  trash?: { isEnabled(): boolean; moveToTrash(user: UserRecord, gate: PathGate, target: Target): Promise<unknown> };
  /** The user's quota (beyond.md §6): writes and copies answer 507 beyond it, extraction beyond its room (§5). */
  quota?: QuotaGate;
  /** The archive worker's code (extraction decodes bzip2 and xz there); default: bundled from source. */
  workerSource?: () => Promise<string>;
}

/** The signed-in user's gate, with the current settings. */
export function gateOf(deps: ResourcesDeps, user: UserRecord): Promise<PathGate> {
  return deps.gates.forUser(user, deps.store.data().settings);
}

/** settings.fileMode / dirMode, with upstream's defaults for 0 (api.md §7). */
export function modesOf(deps: ResourcesDeps): CreateModes {
  return createModes(deps.store.data().settings);
}
