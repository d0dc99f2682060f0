/**
 * Session-epoch changes told to every instance (beyond.md §10): when a user's `sessionEpoch`
 * moves (password change, "log out everywhere"), the instance that moved it publishes the change
 * and every instance, itself included, hears it, so caches of users and sessions drop what the
 * change revoked within 1 s. The epoch itself lives in the state store; this only tells.
 * In-process here (`createMemoryEpochChannel`); on PostgreSQL through LISTEN/NOTIFY
 * (epochs-pg.ts).
 */
export interface EpochChannel {
  /** Tells every instance that user `userId` now has session epoch `epoch`. */
  publish(userId: number, epoch: number): Promise<void>;
  /**
   * Calls `listener` for every change published from now on, by any instance. `onMissed` is
   * called when changes may have been lost (the channel's connection dropped and came back):
   * the caller then re-reads what it caches. Answers a function that unsubscribes.
   */
  onChange(listener: EpochListener, onMissed?: () => void): () => void;
  /** Stops listening; the channel is unusable afterwards. */
  close(): Promise<void>;
}

export type EpochListener = (userId: number, epoch: number) => void;

/** Calls every listener of a set, so one that throws neither stops the others nor the caller. */
export class EpochListeners {
  private readonly listeners = new Set<{ change: EpochListener; missed?: () => void }>();

  constructor(private readonly onError: (error: unknown) => void) {}

  add(change: EpochListener, missed?: () => void): () => void {
    const entry = { change, missed };
    this.listeners.add(entry);
    return () => {
      this.listeners.delete(entry);
    };
  }

  changed(userId: number, epoch: number): void {
    for (const l of [...this.listeners]) this.guard(() => l.change(userId, epoch));
  }

  missed(): void {
    for (const l of [...this.listeners]) if (l.missed) this.guard(l.missed);
  }

  clear(): void {
    this.listeners.clear();
  }

  private guard(call: () => void): void {
    try {
      call();
    } catch (error) {
      this.onError(error);
    }
  }
}

/** The channel of a single instance: a publish reaches its own listeners, after the current tick. */
export function createMemoryEpochChannel(onError: (error: unknown) => void = () => undefined): EpochChannel {
  const listeners = new EpochListeners(onError);
  let closed = false;
  return {
    publish(userId, epoch) {
      if (closed) return Promise.reject(new Error('the epoch channel is closed'));
      queueMicrotask(() => listeners.changed(userId, epoch));
      return Promise.resolve();
    },
    onChange: (listener, onMissed) => listeners.add(listener, onMissed),
    close() {
      closed = true;
      listeners.clear();
      return Promise.resolve();
    },
  };
}
