/**
 * One LISTEN connection of its own that stays up: when it drops it reconnects (waiting longer
 * after each failure, up to 5 s) and then calls `onReconnect`, since a NOTIFY sent while nobody
 * listened is lost and the caller must re-read what it caches.
 */
import pg from 'pg';

export interface ListenOptions {
  url: string;
  channel: string;
  onNotify: (payload: string) => void;
  onReconnect: () => void;
  onError: (error: unknown) => void;
  /** application_name of the connection (what an operator sees in pg_stat_activity). */
  name: string;
}

export interface Listener {
  /** True while the connection listens: a NOTIFY from now on reaches this instance. */
  up(): boolean;
  close(): Promise<void>;
}

const FIRST_WAIT_MS = 250;
const MAX_WAIT_MS = 5000;

/** Connects again, waiting longer after each failure, until it works or the listener is closed. */
async function reconnect(connect: () => Promise<void>, opts: ListenOptions, closed: () => boolean): Promise<void> {
  let wait = FIRST_WAIT_MS;
  while (!closed()) {
    await new Promise((resolve) => setTimeout(resolve, wait));
    try {
      await connect();
      opts.onReconnect();
      return;
    } catch (error) {
      opts.onError(error);
      wait = Math.min(wait * 2, MAX_WAIT_MS);
    }
  }
}

/** Starts listening; the first connection is made before it resolves (its failure rejects). */
export async function listen(opts: ListenOptions): Promise<Listener> {
  let client: pg.Client | undefined;
  let closed = false;
  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: opts.url, application_name: opts.name, keepAlive: true });
    c.on('notification', (m) => {
      if (m.channel === opts.channel) opts.onNotify(m.payload ?? '');
    });
    c.on('error', (error) => {
      opts.onError(error);
      dropped(c);
    });
    c.on('end', () => dropped(c));
    try {
      await c.connect();
      await c.query(`LISTEN ${opts.channel}`);
    } catch (error) {
      await c.end().catch(() => undefined);
      throw error;
    }
    if (closed) await c.end();
    else client = c;
  };
  const again = (): Promise<void> => reconnect(connect, opts, () => closed);
  function dropped(c: pg.Client): void {
    if (closed || client !== c) return;
    client = undefined;
    void c.end().catch(() => undefined);
    void again();
  }
  await connect();
  return {
    up: () => client !== undefined,
    async close() {
      closed = true;
      const c = client;
      client = undefined;
      await c?.end().catch(() => undefined);
    },
  };
}
