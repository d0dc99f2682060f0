import { createElement, useSyncExternalStore, type ComponentType, type ReactNode } from 'react';

/** A component whose code is a chunk of its own, with a way to fetch that chunk ahead of time. */
export interface LazyComponent<P extends object> {
  (props: P): ReactNode;
  /** Fetches and runs the chunk (once, however often it is called); resolves when it is there. */
  preload: () => Promise<void>;
}

type Loaded<P> =
  | { status: 'idle' | 'loading' }
  | { status: 'ready'; component: ComponentType<P> }
  | { status: 'failed'; error: unknown };

/**
 * `React.lazy` without Suspense: once the chunk is there (preloaded, or from an earlier render)
 * the component renders at once; before that it renders `Fallback` and re-renders itself when the
 * chunk arrives, as an ordinary store update. A lazy that suspends instead is revealed by a
 * Suspense retry, which React 19 holds back until 300 ms after the fallback was shown, even when
 * the code came in 5 ms (its fallback throttle). A chunk that fails to load throws on render,
 * for the nearest error boundary, as `React.lazy` does.
 */
export function lazyComponent<P extends object, K extends string>(
  load: () => Promise<Record<K, ComponentType<P>>>,
  name: K,
  Fallback?: ComponentType,
): LazyComponent<P> {
  let loaded: Loaded<P> = { status: 'idle' };
  let pending: Promise<void> | null = null;
  const listeners = new Set<() => void>();
  const settle = (next: Loaded<P>): void => {
    loaded = next;
    for (const listener of listeners) listener();
  };
  const preload = (): Promise<void> => {
    // Not announced: 'loading' renders the same fallback as 'idle', and a render may start it.
    if (loaded.status === 'idle') loaded = { status: 'loading' };
    pending ??= load().then(
      (module) => settle({ status: 'ready', component: module[name] }),
      (error: unknown) => settle({ status: 'failed', error }),
    );
    return pending;
  };
  const subscribe = (listener: () => void): (() => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };
  const snapshot = (): Loaded<P> => loaded;

  function Lazy(props: P): ReactNode {
    const current = useSyncExternalStore(subscribe, snapshot, snapshot);
    if (current.status === 'ready') return createElement(current.component, props);
    if (current.status === 'failed') throw current.error;
    void preload();
    return Fallback ? createElement(Fallback) : null;
  }
  Lazy.displayName = `Lazy(${name})`;
  Lazy.preload = preload;
  return Lazy;
}
