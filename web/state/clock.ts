import { atom } from 'jotai';

const MINUTE_MS = 60_000;

/** The current time in ms, refreshed every minute while read, for relative dates ("in 3 hours"). */
export const nowAtom = atom(Date.now());
nowAtom.onMount = (set) => {
  set(Date.now());
  const timer = setInterval(() => set(Date.now()), MINUTE_MS);
  return () => clearInterval(timer);
};
