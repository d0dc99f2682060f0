import { AppError } from '../errors';

/** Limits of api.md §14: 5 failures per (address, name), 20 per address, in a 15-minute window. */
export interface ThrottleLimits {
  perPair: number;
  perAddress: number;
  windowMs: number;
}

export const DEFAULT_THROTTLE_LIMITS: ThrottleLimits = { perPair: 5, perAddress: 20, windowMs: 15 * 60_000 };

/**
 * Fixed rate windows by key, as the shared-ephemeral store (state/ephemeral.ts) keeps them: the
 * part of it the throttle uses, so every instance serving the same state counts the same failures.
 */
export interface RateWindows {
  /** Counts one event in the window of `key` (a new one starts at its first event) and answers the count. */
  hit(key: string, windowMs: number): Promise<number>;
  /** The open window of `key` (its count, ms until it ends), undefined when none is open. */
  peekWindow(key: string, windowMs: number): Promise<{ count: number; endsInMs: number } | undefined>;
  /** Closes the window of `key`. */
  clearWindow(key: string): Promise<void>;
}

/**
 * Counts failed attempts (login, signup, share passwords) per client address and per (address,
 * name) pair. During a lockout every attempt, even a correct one, answers 429 (no oracle).
 * The counts are rate windows of the shared-ephemeral store, so every instance serving the same
 * state counts the same failures (beyond.md §10).
 */
export interface Throttle {
  /** Throws 429 with Retry-After when the address or the pair is locked out. */
  check(address: string, name: string): Promise<void>;
  /** Records a failed attempt. */
  fail(address: string, name: string): Promise<void>;
  /** Clears the pair's failures after a success; the address's count stays (api.md §14). */
  succeed(address: string, name: string): Promise<void>;
  /**
   * Runs `attempt` under the throttle: 429 while locked out, a failure counted when it throws an
   * AppError whose code is in `failures`, the pair cleared when it succeeds.
   */
  guard<T>(key: { address: string; name: string }, attempt: () => Promise<T>, failures?: readonly string[]): Promise<T>;
}

export interface ThrottleOptions {
  /** Where the failure windows live: the shared-ephemeral store. */
  windows: RateWindows;
  limits?: ThrottleLimits;
}

// Windows are fixed: one starts at its first failure and lasts `windowMs` (Ephemeral.hit). The
// parts are JSON-quoted: unambiguous, and free of NUL (a name may hold one; PostgreSQL text may not).
const pairKey = (address: string, name: string): string => `throttle:p:${JSON.stringify([address, name.toLowerCase()])}`;
const addrKey = (address: string): string => `throttle:a:${JSON.stringify(address)}`;

/** Creates the sign-in throttle on the shared-ephemeral store's rate windows. */
export function createThrottle(options: ThrottleOptions): Throttle {
  const limits = options.limits ?? DEFAULT_THROTTLE_LIMITS;
  const store = options.windows;
  /** Seconds until `key` may try again, 0 when it is not locked out. */
  const lockedFor = async (key: string, max: number): Promise<number> => {
    const w = await store.peekWindow(key, limits.windowMs);
    if (!w || w.count < max) return 0;
    return Math.max(1, Math.ceil(w.endsInMs / 1000));
  };
  const throttle: Throttle = {
    async check(address, name) {
      const [pair, addr] = await Promise.all([lockedFor(pairKey(address, name), limits.perPair), lockedFor(addrKey(address), limits.perAddress)]);
      const wait = Math.max(pair, addr);
      if (wait > 0) throw new AppError('too_many_requests', undefined, { 'retry-after': String(wait) });
    },
    async fail(address, name) {
      await Promise.all([store.hit(pairKey(address, name), limits.windowMs), store.hit(addrKey(address), limits.windowMs)]);
    },
    async succeed(address, name) {
      await store.clearWindow(pairKey(address, name));
    },
    async guard(key, attempt, failures = ['unauthorized', 'forbidden']) {
      await throttle.check(key.address, key.name);
      try {
        const result = await attempt();
        await throttle.succeed(key.address, key.name);
        return result;
      } catch (err) {
        if (err instanceof AppError && failures.includes(err.code)) await throttle.fail(key.address, key.name);
        throw err;
      }
    },
  };
  return throttle;
}
