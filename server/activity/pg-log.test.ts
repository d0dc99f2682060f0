import { afterEach, describe, expect, it } from 'vitest';
import { postgresForFile } from '../../tests/support/postgres';
import { AppError } from '../errors';
import { emptyDatabase } from '../state/initial';
import { openPgStore, type PgStore } from '../state/store-pg';
import { completeEntry, type ActivityEntry, type ActivityLog } from './entry';
import { openActivityLog } from './open-log';
import { createPgActivityLog } from './pg-log';

const pg = postgresForFile();
const stores: PgStore[] = [];
const logs: ActivityLog[] = [];
const DAY = 24 * 60 * 60 * 1000;
const T0 = Date.parse('2030-06-01T00:00:00.000Z');

afterEach(async () => {
  await Promise.all(logs.splice(0).map((l) => l.close()));
  await Promise.all(stores.splice(0).map((s) => s.close()));
});

function entry(i: number, atMs = T0 + i * 1000, extra: Partial<ActivityEntry> = {}): ActivityEntry {
  return completeEntry({ action: 'save', user: i % 2 === 0 ? 'ann' : 'bob', path: `/f${i}`, time: new Date(atMs).toISOString(), ...extra }, 0);
}

async function pgLog(days = 90, now = T0): Promise<{ log: ActivityLog; store: PgStore }> {
  const { store } = await openPgStore(await pg().newDatabase(), { init: () => emptyDatabase() });
  stores.push(store);
  const log = createPgActivityLog({ pool: store.pool, days: () => days, now: () => now, flushMs: 60_000 });
  logs.push(log);
  return { log, store };
}

async function all(log: ActivityLog, limit = 3): Promise<string[]> {
  const out: string[] = [];
  let cursor: string | undefined;
  for (let guard = 0; guard < 100; guard++) {
    const page = await log.query({}, limit, cursor);
    out.push(...page.entries.map((e) => e.path));
    if (page.next === null) return out;
    cursor = page.next;
  }
  throw new Error('no end');
}

describe('the activity log in PostgreSQL', () => {
  it('is the table openActivityLog picks for a PostgreSQL store', async () => {
    const { store } = await pgLog();
    const log = openActivityLog({ location: store.location, pg: store.pool, days: () => undefined });
    logs.push(log);
    log.append(entry(1));
    expect((await log.query({}, 10)).entries.map((e) => e.path)).toEqual(['/f1']);
    const rows = await store.pool.query('SELECT count(*)::int AS n FROM filemgr_state.activity');
    expect(rows.rows[0]).toEqual({ n: 1 });
  });

  it('answers newest first, page by page, with what was appended just before', async () => {
    const { log } = await pgLog();
    for (let i = 1; i <= 7; i++) log.append(entry(i));
    expect(await all(log)).toEqual(['/f7', '/f6', '/f5', '/f4', '/f3', '/f2', '/f1']);
  });

  it.each([
    [{ user: 'ann' }, ['/f4', '/f2']],
    [{ action: 'share.' }, ['/s']],
    [{ action: 'share' }, []],
    [{ path: 'F1' }, ['/f1']],
    [{ path: '%' }, []],
    [{ path: 'dest' }, ['/s']],
    [{ since: T0 + 2000, until: T0 + 4000 }, ['/f3', '/f2']],
  ])('filters by %j', async (filters, paths) => {
    const { log } = await pgLog();
    for (let i = 1; i <= 4; i++) log.append(entry(i));
    log.append(entry(5, T0 + 5000, { action: 'share.create', path: '/s', destination: '/dest' }));
    expect((await log.query(filters, 100)).entries.map((e) => e.path)).toEqual(paths);
  });

  it('drops entries older than activityDays and no longer shows them', async () => {
    const { log, store } = await pgLog(1, T0 + 2 * DAY);
    log.append(entry(1, T0));
    log.append(entry(2, T0 + 1.5 * DAY));
    expect((await log.query({}, 10)).entries.map((e) => e.path)).toEqual(['/f2']);
    await log.prune();
    const rows = await store.pool.query('SELECT count(*)::int AS n FROM filemgr_state.activity');
    expect(rows.rows[0]).toEqual({ n: 1 });
  });

  it.each(['x', 'p', 'p-1', 'p1x', `p${'9'.repeat(30)}`])('refuses the cursor %j with 400', async (cursor) => {
    const { log } = await pgLog();
    await expect(log.query({}, 10, cursor)).rejects.toSatisfy((e: unknown) => e instanceof AppError && e.code === 'bad_request');
  });

  it('sees what another instance appended once that one wrote it', async () => {
    const { log, store } = await pgLog();
    const other = createPgActivityLog({ pool: store.pool, days: () => 90, now: () => T0, flushMs: 10 });
    logs.push(other);
    other.append(entry(9));
    await other.close();
    expect((await log.query({}, 10)).entries.map((e) => e.path)).toEqual(['/f9']);
  });
});
