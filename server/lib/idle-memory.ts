import type { Server } from 'node:http';

/**
 * Gives memory back once the server has gone idle after work that grew it. Without this, RSS
 * stayed at its peak for good after a burst (245 MB 30 s after 200 clients had stopped): with
 * incremental marking off (build/code-cache.ts) V8's memory reducer never runs, so nothing
 * collects once requests stop: dead download buffers stay allocated and V8 keeps the pages it
 * emptied in a pool. When no request has been under way for `idleMs` and the RSS is `growthBytes`
 * above what it was after the last reclaim, `release` callbacks drop caches, then a last-resort
 * full collection (which also frees V8's pooled pages) runs once. Start-up counts as such a
 * burst: its garbage (module evaluation, the database, the first requests) goes `idleMs` after
 * the watch starts when no request is under way then (1-3 MB of a ~77 MB idle RSS).
 */
export interface IdleMemoryOptions {
  idleMs: number;
  growthBytes: number;
  /** Drops what may be dropped (kept buffers...) before the collection. */
  release: ReadonlyArray<() => void>;
  /** The resident set size now (injectable for tests). */
  rss?: () => number;
  /** The collection (injectable for tests); by default V8's gc when exposed (--expose-gc), else none. */
  collect?: (() => void) | undefined;
  /**
   * While requests are under way: when the RSS is `growthBytes` above what it was after the last
   * reclaim (or at the start), release and collect at once, at most every `intervalMs` (checked
   * each second; see watchPressure).
   */
  pressure?: { growthBytes: number; intervalMs: number };
}

export interface IdleMemory {
  /** Stops watching (the server closes). */
  close(): void;
  /**
   * Work outside any request grew memory (a search index build): reclaim `idleMs` after it, or
   * after the requests then under way, whatever the growth (as after start-up).
   */
  afterWork(): void;
  /** Reclaims done so far (for tests). */
  reclaims(): number;
  /** Collections under load done so far (for tests). */
  pressured(): number;
}

/** How often the RSS is read while requests are under way. */
const PRESSURE_CHECK_MS = 1000;

/**
 * Collections under sustained load. With a 1 MB young generation nearly every object a request
 * keeps for a few milliseconds is promoted, and with 200 clients V8 let its old generation commit
 * 90-280 MB around ~23 MB of live objects before a full collection, keeping the pages after it:
 * the mixed load of the memory bench peaked at 180-260 MiB, and at 370-393 MiB one run in eight.
 * A last-resort collection gives those pages back and sets a limit from the live size again.
 * Growing the old generation by 1.5x instead of 2x (code-cache.ts) held the peak at 213-240 MiB
 * but made a 20,000-file tar 40 % slower; this costs one collection of a few tens of ms at most
 * every intervalMs, and only past the growth, which a tar (+70 MB) or an upload does not reach.
 */
function watchPressure(opts: { rss: () => number; floor: () => number; relieve: () => void; pressure: NonNullable<IdleMemoryOptions['pressure']> }) {
  // Growth counts from the RSS after the last reclaim (`floor`), or at the start before one.
  const started = opts.rss();
  let timer: NodeJS.Timeout | undefined;
  let last = Number.NEGATIVE_INFINITY;
  let count = 0;
  const check = (): void => {
    // Wall-clock time (a clock set back lets the next check through rather than none for hours).
    const now = Date.now();
    if ((now >= last && now - last < opts.pressure.intervalMs) || opts.rss() < Math.max(opts.floor(), started) + opts.pressure.growthBytes) return;
    last = now;
    count++;
    opts.relieve();
  };
  return {
    start(): void {
      timer ??= setInterval(check, PRESSURE_CHECK_MS);
      timer.unref();
    },
    stop(): void {
      if (timer) clearInterval(timer);
      timer = undefined;
    },
    count: () => count,
  };
}

type GcFunction = (options?: { type?: string; execution?: string; flavor?: string }) => void;

/** V8's collector when the executable exposes it (the build's --expose-gc); undefined under plain node. */
function exposedGc(): (() => void) | undefined {
  const gc = (globalThis as { gc?: GcFunction }).gc;
  if (typeof gc !== 'function') return undefined;
  return () => gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}

/** Drops what may be dropped, then collects. */
function releaseAndCollect(release: ReadonlyArray<() => void>, collect: (() => void) | undefined): () => void {
  return () => {
    for (const drop of release) drop();
    collect?.();
  };
}

/** Watches `server`'s requests and reclaims memory when it goes idle (see IdleMemoryOptions). */
export function watchIdleMemory(server: Server, opts: IdleMemoryOptions): IdleMemory {
  const rss = opts.rss ?? (() => process.memoryUsage.rss());
  const collect = 'collect' in opts ? opts.collect : exposedGc();
  // Zero: the first idle moment reclaims whatever start-up grew.
  let baseline = 0;
  let active = 0;
  let reclaims = 0;
  let timer: NodeJS.Timeout | undefined;

  const relieve = releaseAndCollect(opts.release, collect);
  const pressure = opts.pressure ? watchPressure({ rss, floor: () => baseline, relieve, pressure: opts.pressure }) : undefined;
  const reclaim = (): void => {
    timer = undefined;
    if (active > 0 || rss() < baseline + opts.growthBytes) return;
    relieve();
    reclaims++;
    baseline = rss();
  };
  const cancel = (): void => {
    if (timer) clearTimeout(timer);
    timer = undefined;
  };
  const schedule = (): void => {
    cancel();
    timer = setTimeout(reclaim, opts.idleMs).unref();
  };
  const onRequest = (_req: unknown, res: NodeJS.EventEmitter): void => {
    active++;
    cancel();
    pressure?.start();
    res.once('close', () => {
      if (--active > 0) return;
      pressure?.stop();
      schedule();
    });
  };
  server.on('request', onRequest);
  schedule();
  return {
    afterWork() {
      baseline = 0;
      if (active === 0) schedule();
    },
    close() {
      server.off('request', onRequest);
      cancel();
      pressure?.stop();
    },
    reclaims: () => reclaims,
    pressured: () => pressure?.count() ?? 0,
  };
}
