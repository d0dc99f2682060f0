import type { NewJob } from './entries';

/** product.md §9: at most this many uploads run at once. */
export const MAX_ACTIVE = 5;

/** A file (or folder) of the queue (product.md §3 "Upload job"): queued, then active. */
export interface Job extends NewJob {
  id: number;
  status: 'queued' | 'active';
}

/** The queued jobs to start now, in queue order, so that at most `max` are active. */
export function toStart(jobs: readonly Job[], max = MAX_ACTIVE): Job[] {
  const active = jobs.filter((job) => job.status === 'active').length;
  const room = Math.max(0, max - active);
  return room === 0 ? [] : jobs.filter((job) => job.status === 'queued').slice(0, room);
}

/** Bytes sent of the whole batch: the finished files' and what the running ones have sent. */
export function sentBytes(finished: number, running: ReadonlyMap<number, number>): number {
  let sum = finished;
  for (const loaded of running.values()) sum += loaded;
  return sum;
}

/** A whole percentage of `part` in `total` (100 for an empty total), never above 100. */
export function percent(part: number, total: number): number {
  if (total <= 0) return 100;
  return Math.min(100, Math.floor((part / total) * 100));
}
