import type { FastifyInstance } from 'fastify';
import type { ServerConfig } from '../../config';
import type { GateFactory } from '../../fs/gates';
import type { HookRunner } from '../../hooks/hooks';
import type { Ephemeral } from '../../state/ephemeral';
import type { Store } from '../../state/store';
import { storeTrashRecords } from '../../state/trash-records';
import { createTrashService, type TrashService } from './service';

/**
 * The recycle bin as the app runs it (beyond.md §3): records in the state store, the purge at
 * start and every hour on a timer that stops with the app, sizes counted before it closes.
 */
export function trashService(app: FastifyInstance, deps: { store: Store; config: ServerConfig }, parts: { gates: GateFactory; hooks: HookRunner; previews: { invalidate(realPath: string): Promise<void> }; ephemeral: Ephemeral }): TrashService {
  const trash = createTrashService({
    store: deps.store,
    config: deps.config,
    ...parts,
    records: storeTrashRecords(deps.store),
    // Read through the global each time, so a test's fake clock applies.
    now: () => Date.now(),
    report: (err) => app.log.warn({ err }, 'trash'),
  });
  const stop = trash.schedule();
  app.addHook('onClose', async () => {
    stop();
    await trash.settled();
  });
  return trash;
}
