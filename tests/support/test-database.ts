import { afterAll } from 'vitest';
import pg from 'pg';
import { migrateSchema } from '../../server/state/pg-schema';
import { openPgStore } from '../../server/state/store-pg';
import type { Database } from '../../server/state/schema';
import { memoryStore, type Store } from '../../server/state/store';
import { startPostgres, type TestPostgres } from './postgres';

/**
 * The store of a test app: in memory by default; with FILEMGR_TEST_DATABASE=postgres (the
 * `server-pg` project of build/vitest.config.ts) a fresh database of ONE PostgreSQL started for
 * the test file at its first app and stopped after its last test (tests/support/pg-setup.ts).
 */
export function testDatabaseKind(): 'memory' | 'postgres' {
  return process.env.FILEMGR_TEST_DATABASE === 'postgres' ? 'postgres' : 'memory';
}

let server: Promise<TestPostgres> | undefined;
/** The next app's database, created while the current test runs (CREATE DATABASE takes ~100 ms). */
let spare: Promise<string> | undefined;

/** Stops the file's PostgreSQL, if one was started (registered by pg-setup.ts). */
export function stopTestPostgresAfterAll(): void {
  afterAll(async () => {
    const started = server;
    server = undefined;
    await spare?.catch(() => undefined);
    spare = undefined;
    await (await started?.catch(() => undefined))?.stop();
  });
}

/** A new database with the state schema already made (the app's start then only checks it). */
async function prepared(cluster: TestPostgres): Promise<string> {
  const url = await cluster.newDatabase();
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    await migrateSchema(pool, 'test database');
  } finally {
    await pool.end();
  }
  return url;
}

/** A store holding `db`: memory, or a new PostgreSQL database (see testDatabaseKind). */
export async function testStore(db: Database): Promise<Store> {
  return (await testStoreAt(db)).store;
}

/**
 * testStore and, on PostgreSQL, the database's URL: the app then keeps its shared-ephemeral store
 * and epoch channel there too (config.databaseUrl), as an instance started on that URL would.
 */
export async function testStoreAt(db: Database): Promise<{ store: Store; url?: string }> {
  if (testDatabaseKind() === 'memory') return { store: memoryStore(db) };
  server ??= startPostgres();
  const cluster = await server;
  const url = await (spare ?? prepared(cluster));
  spare = prepared(cluster);
  // A test file that ends before using it leaves it to the server's stop.
  spare.catch(() => undefined);
  return { store: (await openPgStore(url, { init: () => structuredClone(db), poolSize: 3 })).store, url };
}
