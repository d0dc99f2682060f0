import type { DiskUsage } from '../../contract/resource';
import type { GateFactory } from '../../fs/gates';
import { statTarget } from '../../fs/info';
import { diskUsage } from '../../fs/usage';
import type { QuotaUsage } from '../../quota/quota';
import type { UserRecord } from '../../state/schema';
import type { Store } from '../../state/store';

export interface UsageDeps {
  store: Store;
  gates: GateFactory;
  /** A user with a quota is answered against it (beyond.md §6). */
  quota?: { usage(user: UserRecord): Promise<QuotaUsage | null> };
}

/** GET /api/usage{p} (api.md §3.10): the volume's usage for a directory, zeros for a file. */
export function createUsageService(deps: UsageDeps) {
  return {
    /** Total and used bytes of the filesystem holding the user path `raw`; the quota and usage of a user with a quota. */
    async usage(user: UserRecord, raw: string): Promise<DiskUsage> {
      const gate = await deps.gates.forUser(user, deps.store.data().settings);
      const target = await gate.resolve(raw);
      const s = await statTarget(target);
      if (!s.effective.isDirectory()) return { total: 0, used: 0 };
      const quota = await deps.quota?.usage(user);
      return quota ? { total: quota.quota, used: quota.used } : diskUsage(target);
    },
  };
}

export type UsageService = ReturnType<typeof createUsageService>;
