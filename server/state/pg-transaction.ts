import type pg from 'pg';

/**
 * Runs `fn` in one transaction on a connection of `pool`: COMMIT after it, ROLLBACK when it
 * throws (the error goes on), and the connection goes back to the pool either way.
 */
export async function inTransaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
