import { AppError } from '../errors';

/** Limits of api.md §14: 5 failures per (address, name), 20 per address, in a 15-minute window. */
export interface ThrottleLimits {
  perPair: number;
  perAddress: number;
  windowMs: number;
  /** Entries kept at most; expired ones are swept first, then the oldest dropped. */
  maxEntries: number;
}

export const DEFAULT_THROTTLE_LIMITS: ThrottleLimits = { perPair: 5, perAddress: 20, windowMs: 15 * 60_000, maxEntries: 100_000 };

/**
 * Counts failed attempts (login, signup, share passwords) per client address and per (address,
 * name) pair. During a lockout every attempt, even a correct one, answers 429 (no oracle).
 */
export interface Throttle {
  /** Throws 429 with Retry-After when the address or the pair is locked out. */
  check(address: string, name: string): void;
  /** Records a failed attempt. */
  fail(address: string, name: string): void;
  /** Clears the pair's failures after a success; the address's count stays (api.md §14). */
  succeed(address: string, name: string): void;
  /**
   * Runs `attempt` under the throttle: 429 while locked out, a failure counted when it throws an
   * AppError whose code is in `failures`, the pair cleared when it succeeds.
   */
  guard<T>(key: { address: string; name: string }, attempt: () => Promise<T>, failures?: readonly string[]): Promise<T>;
}

interface Window {
  start: number;
  failures: number;
}

/** Fixed failure windows by key: a window starts at its first failure and lasts `windowMs`. */
function failureWindows(limits: ThrottleLimits, now: () => number) {
  const windows = new Map<string, Window>();
  const live = (key: string): Window | undefined => {
    const w = windows.get(key);
    if (w && now() - w.start >= limits.windowMs) {
      windows.delete(key);
      return undefined;
    }
    return w;
  };
  const sweep = (): void => {
    if (windows.size < limits.maxEntries) return;
    for (const key of [...windows.keys()]) live(key);
    // Map iteration is insertion order: the first keys are the oldest windows.
    for (const key of windows.keys()) {
      if (windows.size < limits.maxEntries) break;
      windows.delete(key);
    }
  };
  return {
    bump(key: string): void {
      const w = live(key);
      if (w) w.failures++;
      else {
        sweep();
        windows.set(key, { start: now(), failures: 1 });
      }
    },
    /** Seconds until `key` may try again, 0 when it is not locked out. */
    lockedFor(key: string, max: number): number {
      const w = live(key);
      if (!w || w.failures < max) return 0;
      return Math.max(1, Math.ceil((w.start + limits.windowMs - now()) / 1000));
    },
    clear: (key: string): boolean => windows.delete(key),
  };
}

const pairKey = (address: string, name: string): string => `p\u0000${address}\u0000${name.toLowerCase()}`;
const addrKey = (address: string): string => `a\u0000${address}`;

/** Creates an in-memory throttle; `now` is injectable for tests. */
export function createThrottle(limits: ThrottleLimits = DEFAULT_THROTTLE_LIMITS, now: () => number = Date.now): Throttle {
  const w = failureWindows(limits, now);
  const throttle: Throttle = {
    check(address, name) {
      const wait = Math.max(w.lockedFor(pairKey(address, name), limits.perPair), w.lockedFor(addrKey(address), limits.perAddress));
      if (wait > 0) throw new AppError('too_many_requests', undefined, { 'retry-after': String(wait) });
    },
    fail(address, name) {
      w.bump(pairKey(address, name));
      w.bump(addrKey(address));
    },
    succeed(address, name) {
      w.clear(pairKey(address, name));
    },
    async guard(key, attempt, failures = ['unauthorized', 'forbidden']) {
      throttle.check(key.address, key.name);
      try {
        const result = await attempt();
        throttle.succeed(key.address, key.name);
        return result;
      } catch (err) {
        if (err instanceof AppError && failures.includes(err.code)) throttle.fail(key.address, key.name);
        throw err;
      }
    },
  };
  return throttle;
}
