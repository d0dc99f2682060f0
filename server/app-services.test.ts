import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import bcrypt from 'bcryptjs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app';
import { normalizeUser, userFromDefaults } from './accounts/records';
import { tokenCodec } from './accounts/token';
import { defaultServerConfig } from './config';
import { noAssets } from './lib/assets';
import { emptyDatabase } from './state/initial';
import type { Database } from './state/schema';
import { memoryStore } from './state/store';
import { postgresForFile } from '../tests/support/postgres';
import { bytes, OCTET } from '../tests/support/tus-client';
import { makeTree } from '../tests/support/tree';

// Two instances of the app on one PostgreSQL (--database postgres://…) and one root. Each keeps
// its own copy of the state (a memory store), so what they agree on here comes only through the
// shared-ephemeral store and the epoch channel (beyond.md §10), not through a shared state.
const postgres = postgresForFile();
const PASSWORD = 'admin-Pa55word!';
let root = '';
const apps: FastifyInstance[] = [];

beforeAll(async () => {
  root = await makeTree({ 'docs/keep.txt': 'k' });
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

/** One signing key for every copy of the state (as one state would have). */
const sharedKey = emptyDatabase().settings.key;

function database(): Database {
  const db = emptyDatabase();
  db.settings.key = sharedKey;
  const hash = bcrypt.hashSync(PASSWORD, 4);
  const base = userFromDefaults(db.settings.defaults, 'admin', hash);
  const perm = { ...base.perm, admin: true, create: true, modify: true, delete: true };
  db.users.push({ ...normalizeUser({ ...base, scope: '/', perm, password: hash }), id: db.nextUserId++ });
  return db;
}

/** Two instances on a fresh database of the test PostgreSQL. */
async function twoInstances(): Promise<[FastifyInstance, FastifyInstance]> {
  const url = await postgres().newDatabase();
  const db = database();
  const config = defaultServerConfig({ root, databaseUrl: url });
  const one = () => buildApp({ store: memoryStore(structuredClone(db)), config, assets: noAssets(), logger: false });
  const pair: [FastifyInstance, FastifyInstance] = [await one(), await one()];
  apps.push(...pair);
  return pair;
}

const login = (app: FastifyInstance, password = PASSWORD) =>
  app.inject({ method: 'POST', url: '/api/login', payload: JSON.stringify({ username: 'admin', password }) });
const usage = (app: FastifyInstance, token: string) => app.inject({ method: 'GET', url: '/api/usage/', headers: { 'x-auth': token } });
const tus = (app: FastifyInstance, token: string, at: { method: 'POST' | 'PATCH' | 'HEAD'; path: string; headers?: Record<string, string>; body?: Buffer }) =>
  app.inject({ method: at.method, url: `/api/tus${at.path}`, headers: { 'x-auth': token, ...at.headers }, ...(at.body ? { payload: at.body } : {}) });
const patch = (app: FastifyInstance, token: string, at: { path: string; offset: number; body: Buffer }) =>
  tus(app, token, { method: 'PATCH', path: at.path, headers: { 'content-type': OCTET, 'upload-offset': String(at.offset) }, body: at.body });

describe('two instances on one PostgreSQL', () => {
  it('take a token from either, and refuse it on both within 1 s once it is ended on one', async () => {
    const [a, b] = await twoInstances();
    const token = (await login(a)).body;
    expect((await usage(b, token)).statusCode).toBe(200);
    expect((await a.inject({ method: 'POST', url: '/api/logout', headers: { 'x-auth': token } })).statusCode).toBe(200);
    // b's own copy of the state still has the old epoch: only the channel tells it.
    await expect.poll(async () => (await usage(b, token)).statusCode, { timeout: 1000, interval: 20 }).toBe(401);
  });

  it('hint X-Renew-Token on both to a token issued before an update of its user on one', async () => {
    const [a, b] = await twoInstances();
    const db = database();
    const user = db.users[0];
    if (!user) throw new Error('no admin');
    // Signed with the key both copies share, two seconds ago (the hint compares whole seconds).
    const older = tokenCodec(a.jwt).sign(user, sharedKey, { lifetimeMs: 7_200_000, nowMs: Date.now() - 2000 });
    expect((await b.inject({ method: 'GET', url: '/api/users/1', headers: { 'x-auth': older } })).headers['x-renew-token']).toBeUndefined();
    const put = await a.inject({ method: 'PUT', url: '/api/users/1', headers: { 'x-auth': older }, payload: { what: 'user', which: ['locale'], data: { id: 1, locale: 'de' } } });
    expect(put.statusCode).toBe(200);
    await expect.poll(async () => (await b.inject({ method: 'GET', url: '/api/users/1', headers: { 'x-auth': older } })).headers['x-renew-token'], { timeout: 1000, interval: 20 }).toBe('true');
  });

  it('count wrong passwords given to either against one lockout', async () => {
    const [a, b] = await twoInstances();
    for (const app of [a, b, a, b, a]) expect((await login(app, 'wrong')).statusCode).toBe(403);
    const right = await login(b);
    expect(right.statusCode).toBe(429);
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
    expect((await login(a)).statusCode).toBe(429);
  });

  it('complete a tus upload whose PATCHes alternate between them', async () => {
    const [a, b] = await twoInstances();
    const token = (await login(a)).body;
    const data = bytes(300_000);
    expect((await tus(a, token, { method: 'POST', path: '/docs/up.bin', headers: { 'upload-length': String(data.length) } })).statusCode).toBe(201);
    const nodes = [b, a, b];
    for (const [i, app] of nodes.entries()) {
      const res = await patch(app, token, { path: '/docs/up.bin', offset: i * 100_000, body: data.subarray(i * 100_000, (i + 1) * 100_000) });
      expect(res.statusCode).toBe(204);
      expect(res.headers['upload-offset']).toBe(String((i + 1) * 100_000));
    }
    expect((await readFile(join(root, 'docs/up.bin'))).equals(data)).toBe(true);
    expect((await tus(a, token, { method: 'HEAD', path: '/docs/up.bin' })).statusCode).toBe(404);
  });

  it('never let two concurrent PATCHes of one upload at one offset both succeed', async () => {
    const [a, b] = await twoInstances();
    const token = (await login(a)).body;
    const data = bytes(2_000_000, 3);
    await tus(a, token, { method: 'POST', path: '/docs/race.bin', headers: { 'upload-length': String(data.length * 2) } });
    const results = await Promise.all([a, b, a, b].map((app) => patch(app, token, { path: '/docs/race.bin', offset: 0, body: data })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([204, 409, 409, 409]);
    const head = await tus(b, token, { method: 'HEAD', path: '/docs/race.bin' });
    expect(head.headers['upload-offset']).toBe(String(data.length));
  });
});
