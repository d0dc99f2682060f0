/**
 * The shared-ephemeral store: state that every instance serving the same root must agree on but
 * that need not survive a restart of all of them (beyond.md §10): named locks, counters,
 * rate windows and records with an expiry (WebDAV locks, upload-link counts ...). In-process
 * today (`createMemoryEphemeral`); S1 backs the same interface with PostgreSQL. Every method is
 * async for that reason; callers never assume an answer within the same tick.
 *
 * What must survive a restart (users, shares and their download counts, tokens, dead
 * properties, trash records) belongs in the state store (`store.ts`), not here.
 */
export interface Ephemeral {
  /**
   * Adds 1 to counter `key` unless it has reached `limit`; answers the new value, or null when it
   * was already at the limit. Atomic: of N concurrent calls with one step left, exactly one wins.
   */
  incrementIfBelow(key: string, limit: number): Promise<number | null>;
  /** Adds `delta` (may be negative) to counter `key` and answers the new value. */
  add(key: string, delta: number): Promise<number>;
  /** The value of counter `key` (0 when never set). */
  count(key: string): Promise<number>;
  /**
   * Counts one event in a fixed window of `windowMs` that starts at the key's first event;
   * answers the number of events in the current window, this one included (rate limits).
   */
  hit(key: string, windowMs: number): Promise<number>;
  /**
   * The current window of `key` without counting an event: its events so far and the
   * milliseconds until it ends; undefined when no window of `windowMs` is open.
   */
  peekWindow(key: string, windowMs: number): Promise<RateWindow | undefined>;
  /** Closes the window of `key`: the next `hit` starts a new one at 1. */
  clearWindow(key: string): Promise<void>;
  /** The record stored under `key`, or undefined when absent or expired. */
  get<T>(key: string): Promise<T | undefined>;
  /** Stores a JSON-serialisable record under `key`; it expires after `ttlMs` when given. */
  put(key: string, value: unknown, ttlMs?: number): Promise<void>;
  /**
   * Stores the record under `key` unless a live one is there (an expired one counts as absent);
   * true when this call stored it. Atomic: of N concurrent calls on one key, exactly one wins.
   */
  putIfAbsent(key: string, value: unknown, ttlMs?: number): Promise<boolean>;
  /** Removes the record under `key` (nothing when absent). */
  delete(key: string): Promise<void>;
  /** Every live record whose key starts with `prefix`, in no particular order. */
  list<T>(prefix: string): Promise<Array<{ key: string; value: T }>>;
  /**
   * Runs `fn` while holding the exclusive lock `name` (waiting for it), and releases it however
   * `fn` ends. A check-then-write on the records above goes inside one lock.
   */
  withLock<T>(name: string, fn: () => Promise<T>): Promise<T>;
  /** Stops timers; the store is unusable afterwards. */
  close(): Promise<void>;
}

/** An open rate window as `peekWindow` answers it. */
export interface RateWindow {
  count: number;
  /** Milliseconds until the window ends (more than 0). */
  endsInMs: number;
}

interface Entry {
  /** A deep copy, as a database would hand back: callers never share an object. */
  json: string;
  expires: number;
}

interface Window {
  start: number;
  count: number;
  /** The length of the window, so a sweep knows which have ended. */
  windowMs: number;
}

/** Options of the in-process store; `now` lets tests move the clock. */
export interface MemoryEphemeralOptions {
  now?: () => number;
  /** How often expired records and windows are swept (ms); 0 turns the sweep off. */
  sweepMs?: number;
  /**
   * Rate windows kept at most (an address-spraying client must not grow memory without end):
   * ended ones are dropped first, then the oldest. Default 100 000.
   */
  maxWindows?: number;
}

/** The in-process shared-ephemeral store of a single instance. */
export function createMemoryEphemeral(options: MemoryEphemeralOptions = {}): Ephemeral {
  return new MemoryEphemeral(options.now ?? Date.now, options.sweepMs ?? 60_000, options.maxWindows ?? 100_000);
}

class MemoryEphemeral implements Ephemeral {
  private readonly counters = new Map<string, number>();
  private readonly windows = new Map<string, Window>();
  private readonly records = new Map<string, Entry>();
  private readonly locks = new Map<string, Promise<void>>();
  private readonly timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly now: () => number,
    sweepMs: number,
    private readonly maxWindows: number,
  ) {
    this.timer = sweepMs > 0 ? setInterval(() => this.sweep(), sweepMs) : undefined;
    this.timer?.unref();
  }

  incrementIfBelow(key: string, limit: number): Promise<number | null> {
    const value = this.counters.get(key) ?? 0;
    if (value >= limit) return Promise.resolve(null);
    this.counters.set(key, value + 1);
    return Promise.resolve(value + 1);
  }

  add(key: string, delta: number): Promise<number> {
    const value = (this.counters.get(key) ?? 0) + delta;
    this.counters.set(key, value);
    return Promise.resolve(value);
  }

  count(key: string): Promise<number> {
    return Promise.resolve(this.counters.get(key) ?? 0);
  }

  hit(key: string, windowMs: number): Promise<number> {
    const t = this.now();
    const w = this.windows.get(key);
    if (!w || t - w.start >= windowMs) {
      this.windows.delete(key);
      this.makeRoomForWindow();
      this.windows.set(key, { start: t, count: 1, windowMs });
      return Promise.resolve(1);
    }
    w.count++;
    return Promise.resolve(w.count);
  }

  peekWindow(key: string, windowMs: number): Promise<RateWindow | undefined> {
    const w = this.windows.get(key);
    const endsInMs = w ? w.start + windowMs - this.now() : 0;
    return Promise.resolve(w && endsInMs > 0 ? { count: w.count, endsInMs } : undefined);
  }

  clearWindow(key: string): Promise<void> {
    this.windows.delete(key);
    return Promise.resolve();
  }

  get<T>(key: string): Promise<T | undefined> {
    const entry = this.live(key);
    return Promise.resolve(entry ? (JSON.parse(entry.json) as T) : undefined);
  }

  put(key: string, value: unknown, ttlMs?: number): Promise<void> {
    this.records.set(key, { json: JSON.stringify(value), expires: ttlMs === undefined ? Infinity : this.now() + ttlMs });
    return Promise.resolve();
  }

  putIfAbsent(key: string, value: unknown, ttlMs?: number): Promise<boolean> {
    if (this.live(key)) return Promise.resolve(false);
    this.records.set(key, { json: JSON.stringify(value), expires: ttlMs === undefined ? Infinity : this.now() + ttlMs });
    return Promise.resolve(true);
  }

  delete(key: string): Promise<void> {
    this.records.delete(key);
    return Promise.resolve();
  }

  list<T>(prefix: string): Promise<Array<{ key: string; value: T }>> {
    const out: Array<{ key: string; value: T }> = [];
    for (const key of [...this.records.keys()]) {
      if (!key.startsWith(prefix)) continue;
      const entry = this.live(key);
      if (entry) out.push({ key, value: JSON.parse(entry.json) as T });
    }
    return Promise.resolve(out);
  }

  async withLock<T>(name: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.locks.get(name) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => mine);
    this.locks.set(name, tail);
    await previous;
    try {
      return await fn();
    } finally {
      release();
      // The last holder leaves no entry behind.
      if (this.locks.get(name) === tail) this.locks.delete(name);
    }
  }

  close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    return Promise.resolve();
  }

  private live(key: string): Entry | undefined {
    const entry = this.records.get(key);
    if (entry && entry.expires <= this.now()) {
      this.records.delete(key);
      return undefined;
    }
    return entry;
  }

  /** Below `maxWindows`: ended windows go first, then the oldest (a Map iterates oldest first). */
  private makeRoomForWindow(): void {
    if (this.windows.size < this.maxWindows) return;
    const t = this.now();
    for (const [key, w] of this.windows) if (t - w.start >= w.windowMs) this.windows.delete(key);
    for (const key of this.windows.keys()) {
      if (this.windows.size < this.maxWindows) break;
      this.windows.delete(key);
    }
  }

  private sweep(): void {
    const t = this.now();
    for (const [key, entry] of this.records) if (entry.expires <= t) this.records.delete(key);
    for (const [key, w] of this.windows) if (t - w.start >= Math.min(w.windowMs, WINDOW_KEEP_MS)) this.windows.delete(key);
  }
}

/** Rate windows older than this are swept (no caller counts over a longer window). */
const WINDOW_KEEP_MS = 24 * 3600_000;
