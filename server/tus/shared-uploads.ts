import { randomBytes } from 'node:crypto';
import type { Ephemeral } from '../state/ephemeral';
import { recordOf, type Upload } from './upload';

/**
 * The part of an unfinished tus upload that every instance serving the same root must agree on
 * (beyond.md §10), kept on the shared-ephemeral store: which upload is the live one of a key (its
 * id: a replaced or finished upload answers 404 on every instance), where its bytes are, and
 * whether a request is writing to it and up to which offset its bytes are durable. The bytes
 * themselves stay in the temporary file on the shared root, so any instance can resume them.
 * One request at a time per upload, on any instance: a lock of the store (an advisory lock on
 * PostgreSQL, released by the database when the holding process dies).
 */
export interface UploadRecord {
  /** Tells this upload from an earlier or later one of the same key (the temp path may repeat). */
  id: string;
  target: string;
  temp: string;
  length: number;
  /**
   * Set while a request works on the upload. Still set when the lock is next taken means its
   * holder died mid-write: bytes past `durable` may sit behind a gap and are cut off.
   */
  writing?: { durable: number };
}

/** How often a running PATCH tells the other instances its durable offset, and asks whether to stop (ms). */
export const PUBLISH_MS = 1000;
/** How long a request to stop waits for the PATCH it names (longer than any stall, STALL_MS). */
const INTERRUPT_TTL_MS = 120_000;

/** A fresh upload id. */
export function newUploadId(): string {
  return randomBytes(12).toString('base64url');
}

/** The shared records and locks of tus uploads; `ttlMs` is the silence after which a record lapses. */
export class SharedUploads {
  constructor(
    private readonly store: Ephemeral,
    private readonly ttlMs: number,
  ) {}

  get(key: string): Promise<UploadRecord | undefined> {
    return this.store.get<UploadRecord>(`tus:${key}`);
  }

  /** Stores the record and restarts its time to live. */
  put(key: string, record: UploadRecord): Promise<void> {
    return this.store.put(`tus:${key}`, record, this.ttlMs);
  }

  delete(key: string): Promise<void> {
    return this.store.delete(`tus:${key}`);
  }

  /** Asks the instance running a request on upload `id` (of `key`) to end it (a DELETE or a new upload came). */
  askToInterrupt(key: string, id: string): Promise<void> {
    return this.store.put(`tus-interrupt:${key}`, id, INTERRUPT_TTL_MS);
  }

  /** Whether a request on upload `id` was asked to end. */
  async interruptAsked(key: string, id: string): Promise<boolean> {
    return (await this.store.get<string>(`tus-interrupt:${key}`)) === id;
  }

  clearInterrupt(key: string): Promise<void> {
    return this.store.delete(`tus-interrupt:${key}`);
  }

  /** What tells the other instances of a PATCH running here on `upload`, and stops it when one asks. */
  progressOf(upload: Upload, on: { stop: () => void; onError: (err: unknown) => void }): ProgressPublisher {
    return new ProgressPublisher({
      publish: (at) => this.put(upload.key, { ...recordOf(upload), writing: { durable: at } }),
      poll: async () => {
        if (await this.interruptAsked(upload.key, upload.id)) on.stop();
      },
      onError: on.onError,
    });
  }

  /** Runs `fn` as the one request working on upload `key` (on any instance). */
  exclusive<T>(key: string, fn: () => Promise<T>): Promise<T> {
    return this.store.withLock(`tus:${key}`, fn);
  }

  /** Runs `fn` alone among creations (and restorations) of upload `key`. */
  creating<T>(key: string, fn: () => Promise<T>): Promise<T> {
    return this.store.withLock(`tus-create:${key}`, fn);
  }
}

/** What a running PATCH does once a second: tell its durable offset, ask whether to stop. */
export interface ProgressCalls {
  publish: (durable: number) => Promise<void>;
  /** Ends the PATCH when another instance asked for it. */
  poll: () => Promise<void>;
  onError: (err: unknown) => void;
}

/**
 * Tells the other instances, once a second, the offset durable so far of the PATCH running here
 * (a HEAD on another instance answers it instead of the file's size, which may count bytes of a
 * write still in flight), and looks whether one of them asked it to stop. Writes are chained, so
 * none lands after `stop()` settles.
 */
export class ProgressPublisher {
  private chain: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly calls: ProgressCalls) {}

  start(durable: () => number): void {
    this.stopTimer();
    let last = -1;
    this.timer = setInterval(() => {
      const now = durable();
      const publish = now === last ? () => Promise.resolve() : () => this.calls.publish(now);
      last = now;
      this.chain = this.chain.then(publish).then(this.calls.poll).catch(this.calls.onError);
    }, PUBLISH_MS);
    this.timer.unref();
  }

  /** Stops publishing; settles once the last write is done. */
  async stop(): Promise<void> {
    this.stopTimer();
    await this.chain;
  }

  private stopTimer(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
