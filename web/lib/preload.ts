import { useEffect } from 'react';

/** Something whose code can be fetched ahead of time (a LazyComponent). */
export interface Preloadable {
  preload: () => Promise<void>;
}

const queue: Preloadable[] = [];
/** Everything ever queued: each is preloaded once. */
const queued = new WeakSet<Preloadable>();
let running = false;

/** Resolves in the browser's next idle period (a short timeout where there is no requestIdleCallback). */
function idle(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(() => resolve());
    else setTimeout(resolve, 1);
  });
}

/** Resolves once the page has loaded (its own scripts and styles), at once if it has. */
function pageLoaded(): Promise<void> {
  if (document.readyState === 'complete') return Promise.resolve();
  return new Promise((resolve) => window.addEventListener('load', () => resolve(), { once: true }));
}

async function drain(): Promise<void> {
  running = true;
  await pageLoaded();
  for (let next = queue.shift(); next; next = queue.shift()) {
    // One chunk per idle period: preloading never takes the main thread from the page's own work.
    await idle();
    // A chunk that fails here is fetched again when it is needed, and fails there visibly.
    await next.preload().catch(() => undefined);
  }
  running = false;
}

/**
 * Fetches the chunks of screens that may open soon, one per idle period once the page has
 * loaded, so that their first open renders at once instead of waiting for its code.
 */
export function preloadWhenIdle(items: readonly Preloadable[]): void {
  for (const item of items) {
    if (queued.has(item)) continue;
    queued.add(item);
    queue.push(item);
  }
  if (!running) void drain();
}

/** preloadWhenIdle for the screens a component may open, once it has rendered (cheap to repeat). */
export function usePreloadWhenIdle(items: readonly Preloadable[]): void {
  useEffect(() => preloadWhenIdle(items));
}
