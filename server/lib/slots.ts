/**
 * At most `max` holders at once; the others wait in arrival order. Bounds the memory of work
 * whose cost grows with how many run together (200 clients listing a 2,000-entry folder at once
 * held 200 listings in the heap, ~100 MB, for no more throughput than a few at a time give on a
 * machine of a few cores).
 */
export interface Slots {
  /** Resolves when a slot is free; the returned function frees it (calling it again does nothing). */
  acquire(): Promise<() => void>;
  /** Holders now (for tests). */
  busy(): number;
  /** Waiters now (for tests). */
  waiting(): number;
}

export function createSlots(max: number): Slots {
  if (!Number.isInteger(max) || max < 1) throw new RangeError(`slots need a positive count, got ${max}`);
  let busy = 0;
  const queue: Array<() => void> = [];
  const lease = (): (() => void) => {
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      const next = queue.shift();
      // The slot passes straight to the next waiter; busy only falls when nobody waits.
      if (next) next();
      else busy--;
    };
  };
  return {
    acquire() {
      if (busy < max) {
        busy++;
        return Promise.resolve(lease());
      }
      return new Promise((resolve) => queue.push(() => resolve(lease())));
    },
    busy: () => busy,
    waiting: () => queue.length,
  };
}
