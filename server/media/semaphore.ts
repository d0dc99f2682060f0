/**
 * A counting semaphore: at most `limit` tasks run at once, the rest wait in arrival order.
 * Image decoding takes a slot so that `--imageProcessors` bounds CPU and memory, whatever the
 * number of concurrent preview requests.
 */
export interface Semaphore {
  /** Runs `task` once a slot is free and releases the slot when it settles. */
  run<T>(task: () => Promise<T>): Promise<T>;
  /** Tasks running now. */
  readonly active: number;
  /** Tasks waiting for a slot. */
  readonly waiting: number;
}

/** Returns a semaphore allowing `limit` (an integer >= 1) tasks at once. */
export function createSemaphore(limit: number): Semaphore {
  if (!Number.isInteger(limit) || limit < 1) {
    throw new RangeError(`the concurrency limit must be a positive integer, got ${limit}`);
  }
  let active = 0;
  const queue: (() => void)[] = [];

  const acquire = (): Promise<void> => {
    if (active < limit) {
      active++;
      return Promise.resolve();
    }
    // The slot is handed over directly by release(), so `active` never dips and a newcomer
    // cannot overtake a task that has waited longer.
    return new Promise((resolve) => queue.push(resolve));
  };

  const release = (): void => {
    const next = queue.shift();
    if (next) next();
    else active--;
  };

  return {
    async run<T>(task: () => Promise<T>): Promise<T> {
      await acquire();
      try {
        return await task();
      } finally {
        release();
      }
    },
    get active() {
      return active;
    },
    get waiting() {
      return queue.length;
    },
  };
}
