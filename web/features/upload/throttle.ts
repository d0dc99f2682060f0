export interface Throttled {
  (): void;
  /** Runs a pending call now. */
  flush: () => void;
  /** Drops a pending call. */
  cancel: () => void;
}

/**
 * `fn` at most once per `ms` (product.md §9: progress updates every 100 ms): the first call runs at
 * once, the calls within the window after it fold into one run at its end.
 */
export function throttle(fn: () => void, ms: number, clock: { now: () => number } = Date): Throttled {
  let last = -Infinity;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const run = (): void => {
    timer = undefined;
    last = clock.now();
    fn();
  };
  const call = (): void => {
    if (timer !== undefined) return;
    const wait = last + ms - clock.now();
    if (wait <= 0) run();
    else timer = setTimeout(run, wait);
  };
  call.flush = (): void => {
    if (timer === undefined) return;
    clearTimeout(timer);
    run();
  };
  call.cancel = (): void => {
    clearTimeout(timer);
    timer = undefined;
  };
  return call;
}
