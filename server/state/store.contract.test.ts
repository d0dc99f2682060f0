import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pgClient from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { postgresForFile } from '../../tests/support/postgres';
import { emptyDatabase } from './initial';
import { openStore } from './open-store';
import type { Database, UserRecord } from './schema';
import type { Store } from './store';

/** The same contract on the JSON file and on PostgreSQL: two instances share one database. */
const pg = postgresForFile();
const opened: Store[] = [];
const folders: string[] = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close?.() ?? Promise.resolve()));
  await Promise.all(folders.splice(0).map((f) => rm(f, { recursive: true, force: true })));
});

const kinds = {
  file: async () => {
    const dir = await mkdtemp(join(tmpdir(), 'filemgr-contract-'));
    folders.push(dir);
    return join(dir, 'filemgr.json');
  },
  postgres: () => pg().newDatabase(),
};

async function open(database: string, init?: () => Database): Promise<Store> {
  const { store } = await openStore(database, init ? { init } : {});
  opened.push(store);
  return store;
}

function user(id: number, username: string): UserRecord {
  const d = emptyDatabase().settings.defaults;
  return { ...d, id, username, password: 'x', scope: '/', lockPassword: false, rules: [], sessionEpoch: 0 };
}

async function until(check: () => boolean | Promise<boolean>, ms = 2000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('not seen in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe.each(Object.entries(kinds))('the state store on %s', (kind, location) => {
  // The file store sees a change when asked (refresh, every request); PostgreSQL on its own (NOTIFY).
  const seen = async (s: Store): Promise<void> => (kind === 'file' ? s.refresh() : undefined);
  it('loses no update of 20 concurrent ones from two instances', async () => {
    const at = await location();
    const a = await open(at, () => emptyDatabase());
    const b = await open(at);
    await Promise.all(Array.from({ length: 20 }, (_v, i) =>
      (i % 2 ? a : b).update((db) => {
        const id = db.nextUserId++;
        db.users.push(user(id, `u${i}`));
      })));
    await a.refresh({ verify: true });
    await b.refresh({ verify: true });
    for (const s of [a, b]) {
      expect(s.data().users.map((u) => u.username).sort()).toEqual(Array.from({ length: 20 }, (_v, i) => `u${i}`).sort());
      expect(s.data().nextUserId).toBe(21);
    }
  });

  it('has a change of another instance right after refresh({ verify: true }), without waiting for anything else', async () => {
    const at = await location();
    const a = await open(at, () => emptyDatabase());
    const b = await open(at);
    for (let i = 0; i < 5; i++) {
      await a.update((db) => {
        db.tokens = [...(db.tokens ?? []), { id: `t${i}`, userId: 1, name: 'n', hash: `h${i}`, created: 0, expires: 0, lastUsed: 0, perm: db.settings.defaults.perm }];
      });
      await b.refresh({ verify: true });
      expect(b.data().tokens?.map((t) => t.id)).toContain(`t${i}`);
    }
  });

  it('changes nothing when fn throws', async () => {
    const at = await location();
    const a = await open(at, () => emptyDatabase());
    await expect(a.update((db) => {
      db.settings.signup = true;
      db.users.push(user(7, 'ghost'));
      throw new Error('boom');
    })).rejects.toThrow('boom');
    expect(a.data().settings.signup).toBe(false);
    const again = await open(at);
    expect(again.data().users).toEqual([]);
    expect(again.data().settings.signup).toBe(false);
  });

  it('shows another instance its change (refresh; on PostgreSQL the NOTIFY alone)', async () => {
    const at = await location();
    const a = await open(at, () => emptyDatabase());
    const b = await open(at);
    await a.update((db) => {
      db.shares.push({ hash: 'h1', path: '/x', userID: 1, expire: 0 });
      db.settings.signup = true;
    });
    await until(async () => {
      await seen(b);
      return b.data().shares.length === 1;
    });
    expect(b.data().settings.signup).toBe(true);
    await b.update((db) => {
      db.shares = [];
    });
    await until(async () => {
      await seen(a);
      return a.data().shares.length === 0;
    });
  });

  it('keeps items, their order and absent collections through a reopen', async () => {
    const at = await location();
    const a = await open(at, () => emptyDatabase());
    await a.update((db) => {
      for (const n of ['c', 'a', 'b']) db.shares.push({ hash: n, path: `/${n}`, userID: 1, expire: 0, downloads: 1 });
      db.davProperties = { '/a': [{ ns: 'urn:x', name: 'p', xml: '<p xmlns="urn:x">1</p>' }] };
    });
    await a.update((db) => {
      db.shares.splice(1, 1);
      db.shares.push({ hash: 'z', path: '/z', userID: 1, expire: 0 });
      db.shares.sort((x, y) => x.hash.localeCompare(y.hash));
    });
    const b = await open(at);
    expect(b.data().shares.map((s) => s.hash)).toEqual(['b', 'c', 'z']);
    expect(b.data()).toEqual(a.data());
  });
});

describe('the PostgreSQL store', () => {
  it('creates its schema in an empty database and opens it again without change', async () => {
    const at = await pg().newDatabase();
    const first = await openStore(at, { init: () => emptyDatabase() });
    opened.push(first.store);
    expect(first.created).toBe(true);
    const second = await openStore(at, { init: () => emptyDatabase() });
    opened.push(second.store);
    expect(second.created).toBe(false);
    expect(second.store.data().settings.key).toBe(first.store.data().settings.key);
  });

  it('starts several instances at once on an empty database: one creates, all agree', async () => {
    const at = await pg().newDatabase();
    const all = await Promise.all(Array.from({ length: 4 }, () => openStore(at, { init: () => emptyDatabase() })));
    opened.push(...all.map((o) => o.store));
    expect(all.filter((o) => o.created)).toHaveLength(1);
    expect(new Set(all.map((o) => o.store.data().settings.key)).size).toBe(1);
  });

  it('refuses a database without a state unless asked to create one, and never shows the password', async () => {
    const at = await pg().newDatabase();
    const password = decodeURIComponent(new URL(at).password);
    const error = await openStore(at).then(() => '', (e: unknown) => (e as Error).message);
    expect(error).toMatch(/holds no filemgr state/);
    expect(error).not.toContain(password);
    const wrong = new URL(at);
    wrong.password = 'not-the-password';
    const refused = await openStore(wrong.toString()).then(() => '', (e: unknown) => (e as Error).message);
    expect(refused).toMatch(/cannot open the database postgres:\/\/filemgr:\*\*\*@/);
    expect(refused).not.toContain('not-the-password');
  });

  it('listens again after its connection drops and catches up with what it missed', async () => {
    const at = await pg().newDatabase();
    const a = await open(at, () => emptyDatabase());
    const b = await open(at);
    const admin = new pgClient.Client({ connectionString: at });
    await admin.connect();
    try {
      await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'filemgr-state' AND datname = current_database()`);
    } finally {
      await admin.end();
    }
    await a.update((db) => {
      db.settings.signup = true;
    });
    // No refresh call: the reconnect reads what changed while nobody listened.
    await until(() => b.data().settings.signup, 5000);
    await a.update((db) => {
      db.settings.signup = false;
    });
    await until(() => !b.data().settings.signup, 5000);
  });
});
