import { useAtomValue, type Atom } from 'jotai';
import { unwrap } from 'jotai/utils';

const unwrapped = new WeakMap<Atom<Promise<unknown>>, Atom<unknown>>();

/**
 * The value of an async atom, undefined while it loads; a rejection is thrown, for the nearest
 * error boundary. Unlike useAtomValue it never suspends: a screen that waits for its data this
 * way shows it as soon as it arrives, where a Suspense reveal is held back by React 19 until
 * 300 ms after its fallback appeared.
 */
export function useSettled<T>(anAtom: Atom<Promise<T>>): T | undefined {
  let settled = unwrapped.get(anAtom);
  if (!settled) {
    settled = unwrap(anAtom, () => undefined);
    unwrapped.set(anAtom, settled);
  }
  return useAtomValue(settled) as T | undefined;
}

const kept = new WeakMap<Atom<Promise<unknown>>, Atom<unknown>>();

/**
 * useSettled for data that is loaded again while its screen stays (after a save): undefined only
 * before the first value; while a newer one loads, the previous value stays on screen, as a form
 * keeps what was typed in it.
 */
export function useLatestSettled<T>(anAtom: Atom<Promise<T>>): T | undefined {
  let settled = kept.get(anAtom);
  if (!settled) {
    settled = unwrap(anAtom, (previous) => previous);
    kept.set(anAtom, settled);
  }
  return useAtomValue(settled) as T | undefined;
}
