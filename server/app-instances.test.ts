import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { postgresForFile } from '../tests/support/postgres';
import { tokenCodec } from './accounts/token';
import { buildApp } from './app';
import { defaultServerConfig } from './config';
import { noAssets } from './lib/assets';
import { hashPassword } from './accounts/password';
import { firstRunDatabase } from './setup/first-run';
import { defaultServerSettings } from './state/initial';
import { openPgStore, type PgStore } from './state/store-pg';

/**
 * Two instances on one PostgreSQL state (beyond.md §10): what one writes, the other honours on
 * the very next request, without waiting for its NOTIFY.
 */
const pg = postgresForFile();
const open: Array<{ app: FastifyInstance; store: PgStore }> = [];
const dirs: string[] = [];
const PASSWORD = 'first-Pa55word-here';

afterEach(async () => {
  for (const { app, store } of open.splice(0)) {
    await app.close();
    await store.close();
  }
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

async function twoNodes(): Promise<[FastifyInstance, FastifyInstance]> {
  const url = await pg().newDatabase();
  const root = await mkdtemp(join(tmpdir(), 'filemgr-nodes-'));
  dirs.push(root);
  const passwordHash = await hashPassword(PASSWORD);
  const init = () => firstRunDatabase({ authMethod: 'json', username: 'admin', passwordHash, server: defaultServerSettings() });
  const node = async () => {
    const { store } = await openPgStore(url, { init });
    const app = await buildApp({ store, config: defaultServerConfig({ root, indexInterval: 0 }), assets: noAssets(), logger: false });
    open.push({ app, store });
    return app;
  };
  return [await node(), await node()];
}

async function login(app: FastifyInstance, username: string, password: string): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/login', payload: { username, password } });
  expect(res.statusCode, res.body).toBe(200);
  return res.body;
}

describe('two instances on one PostgreSQL', () => {
  it('a user (sign-in, WebDAV) and an API token made on one node work on the other at once', async () => {
    const [a, b] = await twoNodes();
    const admin = await login(a, 'admin', PASSWORD);
    const created = await a.inject({
      method: 'POST', url: '/api/users', headers: { 'x-auth': admin },
      payload: { what: 'user', which: [], current_password: PASSWORD, data: { username: 'bob', password: 'bob-Pa55word-long', scope: '/', perm: { create: true } } },
    });
    expect(created.statusCode, created.body).toBe(201);
    const basic = `Basic ${Buffer.from('bob:bob-Pa55word-long').toString('base64')}`;
    const dav = await b.inject({ method: 'PROPFIND', url: '/dav/', headers: { authorization: basic, depth: '0' } });
    expect(dav.statusCode, dav.body).toBe(207);
    const bob = await login(b, 'bob', 'bob-Pa55word-long');
    const token = await a.inject({ method: 'POST', url: '/api/tokens', headers: { 'x-auth': bob }, payload: { name: 'ci', perm: { create: true } } });
    expect(token.statusCode, token.body).toBe(201);
    const listed = await b.inject({ method: 'GET', url: '/api/resources/', headers: { authorization: `Bearer ${token.json<{ token: string }>().token}` } });
    expect(listed.statusCode, listed.body).toBe(200);
  });

  it('a password change on one node ends older sessions on the other within a second', async () => {
    const [a, b] = await twoNodes();
    const admin = await login(a, 'admin', PASSWORD);
    const user = (await b.inject({ method: 'GET', url: '/api/users/1', headers: { 'x-auth': admin } })).json<{ id: number }>();
    // A session from ten seconds ago (session epochs count in whole seconds).
    const store = open[1]?.store;
    const record = store?.data().users.find((u) => u.id === user.id);
    const old = tokenCodec(b.jwt).sign(record!, store!.data().settings.key, { lifetimeMs: 3_600_000, nowMs: Date.now() - 10_000 });
    expect((await b.inject({ method: 'GET', url: '/api/resources/', headers: { 'x-auth': old } })).statusCode).toBe(200);
    const changed = await a.inject({
      method: 'PUT', url: `/api/users/${user.id}`, headers: { 'x-auth': admin },
      payload: { what: 'user', which: ['password'], current_password: PASSWORD, data: { id: user.id, password: 'second-Pa55word-here' } },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const deadline = Date.now() + 1000;
    let status = 200;
    while (status === 200 && Date.now() < deadline) {
      status = (await b.inject({ method: 'GET', url: '/api/resources/', headers: { 'x-auth': old } })).statusCode;
    }
    expect(status).toBe(401);
  });

  it('a share link made on one node opens on the other at once', async () => {
    const [a, b] = await twoNodes();
    const admin = await login(a, 'admin', PASSWORD);
    expect((await a.inject({ method: 'POST', url: '/api/resources/f.txt', headers: { 'x-auth': admin }, payload: 'hello' })).statusCode).toBe(200);
    const share = await a.inject({ method: 'POST', url: '/api/share/f.txt', headers: { 'x-auth': admin }, payload: {} });
    expect(share.statusCode, share.body).toBe(200);
    const res = await b.inject({ method: 'GET', url: `/api/public/share/${share.json<{ hash: string }>().hash}` });
    expect(res.statusCode, res.body).toBe(200);
  });
});
