import { realpath } from 'node:fs/promises';
import { join } from 'node:path';
import type { GateFactory } from '../fs/gates';
import { TRASH_DIR } from '../fs/hidden';
import type { Ephemeral } from '../state/ephemeral';
import type { Store } from '../state/store';
import { watchTreeChanges } from '../fs/changes';
import { createQuotaService, type QuotaService } from './quota';
import { createWalkUsage } from './walk-usage';

/** How old a walked usage figure may be before it is walked again in the background. */
const WALK_MAX_AGE_MS = 60_000;

/**
 * The quota service of a server: usage from the search index when it is on and built, else from
 * the kept walk (walk-usage.ts), which leaves out the recycle bin (counted by its records) and the
 * cache, as the index does.
 */
export async function composeQuota(parts: {
  store: Store;
  gates: GateFactory;
  ephemeral: Ephemeral;
  index?: { bytesBelow(real: string): Promise<number | null> };
  root: string;
  cacheDir: string;
}): Promise<QuotaService & { close(): void }> {
  const root = await realpath(parts.root).catch(() => parts.root);
  const cache = parts.cacheDir ? await realpath(parts.cacheDir).catch(() => parts.cacheDir) : '';
  const walk = createWalkUsage({ skip: [join(root, TRASH_DIR), ...(cache ? [cache] : [])], maxAgeMs: WALK_MAX_AGE_MS });
  const unwatch = watchTreeChanges((change) => {
    for (const real of change.kind === 'moved' ? [change.from, change.to] : [change.real]) walk.changed(real);
    return Promise.resolve();
  });
  return { ...createQuotaService({ store: parts.store, gates: parts.gates, ephemeral: parts.ephemeral, index: parts.index, walk }), close: unwatch };
}
