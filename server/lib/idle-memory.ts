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
}

type GcFunction = (options?: { type?: string; execution?: string; flavor?: string }) => void;

/** V8's collector when the executable exposes it (the build's --expose-gc); undefined under plain node. */
function exposedGc(): (() => void) | undefined {
  const gc = (globalThis as { gc?: GcFunction }).gc;
  if (typeof gc !== 'function') return undefined;
  return () => gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
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

  const reclaim = (): void => {
    timer = undefined;
    if (active > 0 || rss() < baseline + opts.growthBytes) return;
    for (const release of opts.release) release();
    collect?.();
    reclaims++;
    baseline = rss();
  };
  const schedule = (): void => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(reclaim, opts.idleMs);
    timer.unref();
  };
  const onRequest = (_req: unknown, res: NodeJS.EventEmitter): void => {
    active++;
    if (timer) clearTimeout(timer);
    timer = undefined;
    res.once('close', () => {
      active--;
      if (active === 0) schedule();
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
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
    reclaims: () => reclaims,
  };
}
