/**
 * Session-epoch changes between instances through PostgreSQL's LISTEN/NOTIFY (beyond.md §10):
 * `publish` sends a NOTIFY on one channel, every instance LISTENs on a connection of its own and
 * hears it within milliseconds, its own publishes included. When the listening connection drops
 * it reconnects (waiting longer after each failure, up to 5 s) and then calls `onMissed`: a
 * NOTIFY sent while nobody listened is gone, so the caller re-reads what it caches.
 */
import pg from 'pg';
import { EpochListeners, type EpochChannel } from './epochs';

export interface PgEpochOptions {
  /** `postgres://user:password@host:port/db` */
  url: string;
  /** The NOTIFY channel (every instance of one installation uses the same). */
  channel?: string;
  /** The first wait before reconnecting (ms). */
  reconnectMs?: number;
  /** Told about connection errors and listeners that threw. */
  onError?: (error: unknown) => void;
}

export interface PgEpochChannel extends EpochChannel {
  /** Settles once this instance listens (again, after a reconnect): a publish from now on reaches it. */
  listening(): Promise<void>;
}

/** The application_name of the listening connections (what an operator sees in pg_stat_activity). */
export const EPOCH_LISTENER_NAME = 'filemgr-epochs';
const MAX_RECONNECT_MS = 5000;

export function createPgEpochChannel(options: PgEpochOptions): PgEpochChannel {
  return new PgEpochs(options);
}

class PgEpochs implements PgEpochChannel {
  private readonly channel: string;
  private readonly pool: pg.Pool;
  private readonly listeners: EpochListeners;
  private readonly onError: (error: unknown) => void;
  private client: pg.Client | undefined;
  private ready: Promise<void>;
  private closed = false;

  constructor(private readonly options: PgEpochOptions) {
    this.channel = options.channel ?? 'filemgr_session_epochs';
    if (!/^[a-z_][a-z0-9_]{0,62}$/.test(this.channel)) throw new Error(`invalid channel name: ${this.channel}`);
    this.onError = options.onError ?? (() => undefined);
    this.listeners = new EpochListeners(this.onError);
    this.pool = new pg.Pool({ connectionString: options.url, max: 2 });
    this.pool.on('error', this.onError);
    this.ready = this.listen(false);
    // The first connection may fail (the database is not up yet): listen() keeps trying.
    this.ready.catch(this.onError);
  }

  async publish(userId: number, epoch: number): Promise<void> {
    if (this.closed) throw new Error('the epoch channel is closed');
    await this.pool.query('SELECT pg_notify($1, $2)', [this.channel, `${userId}:${epoch}`]);
  }

  onChange(listener: (userId: number, epoch: number) => void, onMissed?: () => void): () => void {
    return this.listeners.add(listener, onMissed);
  }

  listening(): Promise<void> {
    return this.ready;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.listeners.clear();
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
    await this.pool.end();
  }

  /** Connects and LISTENs, retrying until it works or the channel is closed. */
  private async listen(again: boolean): Promise<void> {
    let wait = this.options.reconnectMs ?? 250;
    for (;;) {
      if (this.closed) return;
      try {
        await this.connect();
        if (again) this.listeners.missed();
        return;
      } catch (error) {
        this.onError(error);
        await new Promise((resolve) => setTimeout(resolve, wait));
        wait = Math.min(wait * 2, MAX_RECONNECT_MS);
      }
    }
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.options.url,
      application_name: EPOCH_LISTENER_NAME,
      keepAlive: true,
    });
    client.on('error', (error) => {
      this.onError(error);
      this.dropped(client);
    });
    client.on('end', () => this.dropped(client));
    client.on('notification', (message) => {
      if (message.channel === this.channel) this.received(message.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${this.channel}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.closed) await client.end();
    else this.client = client;
  }

  /** The listening connection ended: listen again after a pause (unless closing). */
  private dropped(client: pg.Client): void {
    if (this.closed || this.client !== client) return;
    this.client = undefined;
    void client.end().catch(() => undefined);
    this.ready = new Promise<void>((resolve) => setTimeout(resolve, this.options.reconnectMs ?? 250)).then(() =>
      this.listen(true),
    );
    this.ready.catch(this.onError);
  }

  private received(payload: string | undefined): void {
    const match = /^(-?\d+):(-?\d+(?:\.\d+)?)$/.exec(payload ?? '');
    if (match) this.listeners.changed(Number(match[1]), Number(match[2]));
  }
}
