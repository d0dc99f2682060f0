import { Worker } from 'node:worker_threads';
import type { WorkerInit } from './worker-protocol';

let running = 0;

/** How many archive workers are alive right now (tests check none outlives its archive). */
export function runningArchiveWorkers(): number {
  return running;
}

/** Starts an archive worker from its code string (see worker-source.ts), counted until it exits. */
export function spawnArchiveWorker(code: string, init: WorkerInit): Worker {
  const worker = new Worker(code, { eval: true, workerData: init });
  running++;
  worker.once('exit', () => {
    running--;
  });
  return worker;
}
