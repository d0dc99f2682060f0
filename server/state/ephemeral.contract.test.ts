import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { postgresForFile } from '../../tests/support/postgres';
import { createMemoryEphemeral, type Ephemeral } from './ephemeral';
import { createPgEphemeral } from './ephemeral-pg';
import { createMemoryEpochChannel, type EpochChannel } from './epochs';
import { createPgEpochChannel, EPOCH_LISTENER_NAME, type PgEpochChannel } from './epochs-pg';

// The same cases against every implementation of the shared-ephemeral store and the epoch
// channel. "Two nodes" are two stores on one database (PostgreSQL) or the one in-process store.
const postgres = postgresForFile();
const opened: Array<{ close(): Promise<void> }> = [];
let next = 0;

afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

interface Backend {
  name: string;
  /** Two nodes sharing their state (a fresh state for each call). */
  nodes(): [Ephemeral, Ephemeral];
  /** Two nodes' epoch channels, both listening. */
  channels(): Promise<[EpochChannel, EpochChannel]>;
}

function kept<T extends { close(): Promise<void> }>(s: T): T {
  opened.push(s);
  return s;
}

const memory: Backend = {
  name: 'in-process',
  nodes() {
    const store = kept(createMemoryEphemeral({ sweepMs: 0 }));
    return [store, store];
  },
  channels() {
    const channel = kept(createMemoryEpochChannel());
    return Promise.resolve([channel, channel]);
  },
};

const postgresql: Backend = {
  name: 'PostgreSQL',
  nodes() {
    // A schema of its own per test: fresh tables, created by whichever node comes first.
    const schema = `contract_${++next}`;
    const node = () => kept(createPgEphemeral({ url: postgres().url, schema, sweepMs: 0 }));
    return [node(), node()];
  },
  channels: () => pgChannels(),
};

async function pgChannels(): Promise<[PgEpochChannel, PgEpochChannel]> {
  const channel = `epochs_${++next}`;
  const node = () => kept(createPgEpochChannel({ url: postgres().url, channel, reconnectMs: 50 }));
  const pair: [PgEpochChannel, PgEpochChannel] = [node(), node()];
  await Promise.all(pair.map((c) => c.listening()));
  return pair;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A promise with its resolve function outside (lets a test decide when a lock holder ends). */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe.each([memory, postgresql])('the shared-ephemeral store ($name)', (backend) => {
  it('lets exactly one of 20 concurrent increments take the last step', async () => {
    const [store] = backend.nodes();
    await store.add('dl', 4);
    const results = await Promise.all(Array.from({ length: 20 }, () => store.incrementIfBelow('dl', 5)));
    expect(results.filter((r) => r !== null)).toEqual([5]);
    expect(await store.count('dl')).toBe(5);
  });

  it('lets exactly one take the last step when the 20 are spread over two nodes', async () => {
    const [a, b] = backend.nodes();
    // The first calls of both nodes race to create the tables, too.
    await Promise.all([a.add('dl', 2), b.add('dl', 2)]);
    // Both nodes open their connections first, so the 20 calls below meet in the database.
    await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).count('dl')));
    const calls = Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).incrementIfBelow('dl', 5));
    const results = await Promise.all(calls);
    expect(results.filter((r) => r !== null)).toEqual([5]);
    expect(await a.count('dl')).toBe(5);
    expect(await b.count('dl')).toBe(5);
  });

  it('counts up from nothing to the limit and never past it', async () => {
    const [a, b] = backend.nodes();
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).incrementIfBelow('n', 3)));
    expect(results.filter((r) => r !== null).sort()).toEqual([1, 2, 3]);
    expect(await a.incrementIfBelow('zero', 0)).toBeNull();
    expect(await b.count('zero')).toBe(0);
  });

  it('adds and subtracts and counts an unknown key as 0', async () => {
    const [a, b] = backend.nodes();
    expect(await a.count('c')).toBe(0);
    expect(await a.add('c', 3)).toBe(3);
    expect(await b.add('c', -5)).toBe(-2);
    expect(await a.incrementIfBelow('c', 0)).toBe(-1);
    expect(await b.count('c')).toBe(-1);
  });

  it('counts events of one window over both nodes and starts a new window after its length', async () => {
    const [a, b] = backend.nodes();
    expect(await a.hit('sign-in:ann', 60_000)).toBe(1);
    expect(await b.hit('sign-in:ann', 60_000)).toBe(2);
    expect(await a.hit('sign-in:ann', 60_000)).toBe(3);
    expect(await b.hit('sign-in:bob', 60_000)).toBe(1);
    expect(await a.hit('short', 200)).toBe(1);
    await sleep(400);
    expect(await b.hit('short', 200)).toBe(1);
    expect(await a.hit('sign-in:ann', 60_000)).toBe(4);
  });

  it('shows a window without counting in it, and closes it on request on either node', async () => {
    const [a, b] = backend.nodes();
    expect(await a.peekWindow('fail:ann', 60_000)).toBeUndefined();
    await a.hit('fail:ann', 60_000);
    await b.hit('fail:ann', 60_000);
    const seen = await b.peekWindow('fail:ann', 60_000);
    expect(seen?.count).toBe(2);
    expect(seen?.endsInMs).toBeGreaterThan(0);
    expect(seen?.endsInMs).toBeLessThanOrEqual(60_000);
    expect((await a.peekWindow('fail:ann', 60_000))?.count).toBe(2);
    await b.clearWindow('fail:ann');
    await a.clearWindow('fail:never');
    expect(await a.peekWindow('fail:ann', 60_000)).toBeUndefined();
    expect(await a.hit('fail:ann', 60_000)).toBe(1);
    await a.hit('brief', 200);
    await sleep(400);
    expect(await b.peekWindow('brief', 200)).toBeUndefined();
  });

  it('takes keys of any length and with NUL characters (a deep path, a name from a client)', async () => {
    const [a, b] = backend.nodes();
    const deep = `reserve:${'/very-long-folder-name'.repeat(300)}`;
    const other = `${deep}/x`;
    await a.put(deep, 1, 60_000);
    await a.put(other, 2, 60_000);
    expect(await b.get(deep)).toBe(1);
    expect(await b.get(other)).toBe(2);
    expect((await b.list<number>('reserve:')).map((r) => r.value).sort()).toEqual([1, 2]);
    await b.delete(deep);
    expect(await a.get(deep)).toBeUndefined();
    const nul = 'throttle:\u0000api-token';
    expect(await a.hit(nul, 60_000)).toBe(1);
    expect(await b.hit(nul, 60_000)).toBe(2);
    expect(await a.hit('throttle:', 60_000)).toBe(1);
    expect((await b.peekWindow(nul, 60_000))?.count).toBe(2);
    expect(await a.incrementIfBelow(deep, 1)).toBe(1);
    expect(await b.incrementIfBelow(deep, 1)).toBeNull();
  });

  it('hands back copies of records, lists them by prefix and deletes them', async () => {
    const [a, b] = backend.nodes();
    const value = { owner: 'ann', depth: 0, tags: ['x'] };
    await a.put('lock:/a', value, 60_000);
    await a.put('lock:/b', { owner: 'bob', depth: 1 });
    await b.put('lock%/c', 'not under lock:');
    await b.put('lockX', 1);
    await b.put('other', null);
    value.owner = 'changed';
    expect(await b.get('lock:/a')).toEqual({ owner: 'ann', depth: 0, tags: ['x'] });
    expect(await b.get('other')).toBeNull();
    expect(await a.get('missing')).toBeUndefined();
    expect((await b.list('lock:')).map((r) => r.key).sort()).toEqual(['lock:/a', 'lock:/b']);
    expect((await a.list('lock%')).map((r) => r.key)).toEqual(['lock%/c']);
    await b.put('lock:/b', { owner: 'bob', depth: 2 });
    expect(await a.get('lock:/b')).toEqual({ owner: 'bob', depth: 2 });
    await b.delete('lock:/b');
    await b.delete('lock:/never');
    expect((await a.list('lock:')).map((r) => r.key)).toEqual(['lock:/a']);
  });

  it('forgets a record once its time is up, and keeps one stored again without an expiry', async () => {
    const [a, b] = backend.nodes();
    await a.put('tus:1', { offset: 10 }, 200);
    await a.put('tus:2', { offset: 20 }, 200);
    await a.put('tus:3', { offset: 30 }, 60_000);
    await b.put('tus:2', { offset: 21 });
    await sleep(400);
    expect(await b.get('tus:1')).toBeUndefined();
    expect(await b.get('tus:2')).toEqual({ offset: 21 });
    expect((await a.list<{ offset: number }>('tus:')).map((r) => r.value.offset).sort()).toEqual([21, 30]);
  });

  it('lets exactly one of 20 concurrent putIfAbsent on two nodes store a record, again once it expired', async () => {
    const [a, b] = backend.nodes();
    const wins = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).putIfAbsent('totp:2:7', i, 200)));
    expect(wins.filter(Boolean)).toHaveLength(1);
    expect(await a.get('totp:2:7')).toBe(wins.indexOf(true));
    expect(await b.putIfAbsent('totp:2:7', 'late', 200)).toBe(false);
    await b.put('kept', 1);
    expect(await a.putIfAbsent('kept', 2)).toBe(false);
    await sleep(400);
    expect(await b.putIfAbsent('totp:2:7', 'again', 60_000)).toBe(true);
    expect(await a.get('totp:2:7')).toBe('again');
    expect(await a.get('kept')).toBe(1);
  });

  it('makes a second node wait for a lock until the first releases it', async () => {
    const [a, b] = backend.nodes();
    const order: string[] = [];
    const first = gate();
    const entered = gate();
    const holderA = a.withLock('upload:1', async () => {
      order.push('a in');
      entered.open();
      await first.opened;
      order.push('a out');
      return 'a';
    });
    await entered.opened;
    const holderB = b.withLock('upload:1', () => {
      order.push('b in');
      return Promise.resolve('b');
    });
    // Another lock name is not held up.
    expect(await b.withLock('upload:2', () => Promise.resolve('other'))).toBe('other');
    await sleep(300);
    expect(order).toEqual(['a in']);
    first.open();
    expect(await Promise.all([holderA, holderB])).toEqual(['a', 'b']);
    expect(order).toEqual(['a in', 'a out', 'b in']);
  });

  it('releases a lock when its holder throws, and runs holders one at a time', async () => {
    const [a, b] = backend.nodes();
    const order: string[] = [];
    const hold = (store: Ephemeral, name: string, fail: boolean) =>
      store.withLock('dav:/doc', async () => {
        order.push(`${name} in`);
        await sleep(30);
        order.push(`${name} out`);
        if (fail) throw new Error(name);
        return name;
      });
    const results = await Promise.allSettled([hold(a, 'a', true), hold(b, 'b', false), hold(a, 'c', true), hold(b, 'd', false)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled', 'rejected', 'fulfilled']);
    // Whatever the order of entry, nobody entered before the previous holder left.
    for (let i = 0; i < order.length; i += 2) expect(order[i + 1]).toBe(order[i]?.replace(' in', ' out'));
    expect(await b.withLock('dav:/doc', () => Promise.resolve('free'))).toBe('free');
  });

  it('tells the other node of a session-epoch change within 1 s', async () => {
    const [a, b] = await backend.channels();
    const heardByB: Array<[number, number]> = [];
    const heardByA: Array<[number, number]> = [];
    const stop = b.onChange((userId, epoch) => heardByB.push([userId, epoch]));
    a.onChange((userId, epoch) => heardByA.push([userId, epoch]));
    b.onChange(() => {
      throw new Error('a listener that throws stops no other');
    });
    await a.publish(7, 1_800_000_000);
    await expect.poll(() => heardByB, { timeout: 1000, interval: 10 }).toEqual([[7, 1_800_000_000]]);
    await expect.poll(() => heardByA, { timeout: 1000, interval: 10 }).toEqual([[7, 1_800_000_000]]);
    stop();
    await b.publish(8, 5);
    await expect.poll(() => heardByA, { timeout: 1000, interval: 10 }).toHaveLength(2);
    expect(heardByB).toHaveLength(1);
  });
});

describe('the shared-ephemeral store on PostgreSQL only', () => {
  const admin = async () => {
    const client = new pg.Client({ connectionString: postgres().url });
    kept({ close: () => client.end() });
    await client.connect();
    return client;
  };

  it('releases the lock of a holder whose connection died', async () => {
    const [a, b] = postgresql.nodes();
    const entered = gate();
    const stuck = gate();
    const holderA = a.withLock('tus:dead', async () => {
      entered.open();
      await stuck.opened;
      return 'a finished anyway';
    });
    await entered.opened;
    const db = await admin();
    const killed = await db.query(
      `SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND granted AND pid <> pg_backend_pid()`,
    );
    expect(killed.rowCount).toBe(1);
    expect(await b.withLock('tus:dead', () => Promise.resolve('b got it'))).toBe('b got it');
    stuck.open();
    expect(await holderA).toBe('a finished anyway');
  });

  it('queues the holders of one name on one instance first: one connection waits in the database', async () => {
    const [a, b] = postgresql.nodes();
    const entered = gate();
    const release = gate();
    const holder = b.withLock('busy', async () => {
      entered.open();
      await release.opened;
    });
    await entered.opened;
    const waiters = Array.from({ length: 5 }, (_, i) => a.withLock('busy', () => Promise.resolve(i)));
    const db = await admin();
    const waiting = async () => Number((await db.query<{ n: string }>(`SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`)).rows[0]?.n);
    await expect.poll(waiting, { timeout: 5000, interval: 20 }).toBe(1);
    await sleep(200);
    expect(await waiting()).toBe(1);
    release.open();
    await holder;
    expect(await Promise.all(waiters)).toEqual([0, 1, 2, 3, 4]);
  });

  it('sweeps expired records and keeps the live ones', async () => {
    const schema = `sweep_${++next}`;
    const store = kept(createPgEphemeral({ url: postgres().url, schema, sweepMs: 100 }));
    await store.put('gone', 1, 50);
    await store.put('stays', 2, 60_000);
    await store.put('forever', 3);
    const db = await admin();
    const keys = async () => (await db.query<{ key: string }>(`SELECT key FROM ${schema}.records ORDER BY key`)).rows;
    await expect.poll(keys, { timeout: 5000, interval: 50 }).toEqual([{ key: 'forever' }, { key: 'stays' }]);
  });

  it('listens again after its connection was cut, and says changes may have been missed', async () => {
    const [a, b] = await pgChannels();
    let missed = 0;
    const heard: number[] = [];
    b.onChange((userId) => heard.push(userId), () => missed++);
    const db = await admin();
    await db.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [EPOCH_LISTENER_NAME]);
    await expect.poll(() => missed, { timeout: 10_000, interval: 20 }).toBe(1);
    await b.listening();
    await a.listening();
    await a.publish(42, 1);
    await expect.poll(() => heard, { timeout: 1000, interval: 10 }).toEqual([42]);
  });

  it('refuses a schema name that is not a plain identifier', () => {
    expect(() => createPgEphemeral({ url: postgres().url, schema: 'x; DROP TABLE users' })).toThrow(/invalid schema/);
  });
});
