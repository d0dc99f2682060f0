import { Worker } from 'node:worker_threads';
import type { WorkerInit } from './worker-protocol';

/**
 * How long a reader worker waits, idle, for the next archive. Starting a Node worker costs about
 * 20 ms (its own environment), as much as a tenth of a 20,000-file tar; a download that follows
 * within this time takes the waiting worker instead. Then it exits and its memory is returned.
 */
export const IDLE_WORKER_MS = 15_000;

let running = 0;
const idle = new Map<string, { worker: Worker; timer: NodeJS.Timeout }>();
const parked = new WeakSet<Worker>();
// While parked a worker has no owner to report to; an error then simply ends it.
const endParked = (): void => undefined;

/** How many archive workers are busy right now (tests check none outlives its archive). */
export function runningArchiveWorkers(): number {
  return running;
}

/** How many finished workers wait for the next archive (at most one per kind). */
export function idleArchiveWorkers(): number {
  return idle.size;
}

/** Starts an archive worker from its code string (see worker-source.ts), counted until it exits. */
export function spawnArchiveWorker(code: string, init: WorkerInit): Worker {
  const worker = new Worker(code, { eval: true, workerData: init });
  running++;
  worker.once('exit', () => {
    if (!parked.has(worker)) running--;
    else forget(init.format, worker);
  });
  return worker;
}

function forget(format: string, worker: Worker): void {
  parked.delete(worker);
  const entry = idle.get(format);
  if (entry?.worker !== worker) return;
  clearTimeout(entry.timer);
  idle.delete(format);
}

/**
 * Keeps a worker that finished its archive with nothing in flight for the next archive of the
 * same kind. The caller has removed its own listeners. False when one already waits: the caller
 * then terminates it.
 */
export function parkArchiveWorker(worker: Worker, format: WorkerInit['format']): boolean {
  if (idle.has(format)) return false;
  running--;
  parked.add(worker);
  worker.on('error', endParked);
  worker.unref();
  const timer = setTimeout(() => void worker.terminate(), IDLE_WORKER_MS);
  timer.unref();
  idle.set(format, { worker, timer });
  return true;
}

/** The waiting worker of this kind, now busy again, if there is one. */
export function takeArchiveWorker(format: WorkerInit['format']): Worker | undefined {
  const entry = idle.get(format);
  if (!entry) return undefined;
  forget(format, entry.worker);
  entry.worker.off('error', endParked);
  entry.worker.ref();
  running++;
  return entry.worker;
}

/** Stops every waiting worker (the server is closing). */
export async function closeIdleArchiveWorkers(): Promise<void> {
  const entries = [...idle.values()];
  // Out of the waiting list at once; each is forgotten for good when it exits.
  idle.clear();
  for (const entry of entries) clearTimeout(entry.timer);
  await Promise.all(entries.map((entry) => entry.worker.terminate()));
}
