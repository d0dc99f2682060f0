/*
 * The index builder's worker thread (beyond.md §7: the server answers at once, whatever the size
 * of the root): builds the index file (build-tree.ts) and posts its one message.
 * Code string for the executable: see server/lib/worker-code.ts (asset index-worker.js).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { buildIndexFile } from './build-tree';
import type { BuildRequest } from './build-protocol';

const port = parentPort;
if (port) {
  try {
    port.postMessage({ ok: true, result: buildIndexFile(workerData as BuildRequest) });
  } catch (err) {
    port.postMessage({ ok: false, error: err instanceof Error ? err.message : String(err) });
  }
}
