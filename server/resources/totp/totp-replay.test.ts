import type { FastifyInstance } from 'fastify';
import { Secret, TOTP } from 'otpauth';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../app';
import { noAssets } from '../../lib/assets';
import { createMemoryEphemeral, type Ephemeral } from '../../state/ephemeral';
import { openPgStore } from '../../state/store-pg';
import type { Store } from '../../state/store';
import { appsForEachTest } from '../../../tests/support/per-test';
import { defaultPasswordOf, type TestApp } from '../../../tests/support/test-app';

// A TOTP code is accepted once (beyond.md §4.2), marked used in the shared-ephemeral store rather
// than written to the state (issue B3): in sequence, in parallel, and across two instances sharing
// that store (one in-process store here; two PostgreSQL-backed ones under FILEMGR_TEST_DATABASE=postgres).

const start = appsForEachTest();
const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

const codeAt = (secret: string, offsetSteps = 0): string =>
  new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + offsetSteps * 30_000 });

/** Enrols bob (created) with a code of the previous step: the codes of now and later stay fresh. */
async function enrol(t: TestApp): Promise<{ secret: string; codes: string[] }> {
  await t.addUser({ username: 'bob' });
  const headers = { 'x-auth': t.token('bob') };
  const { secret } = (await t.app.inject({ method: 'POST', url: '/api/totp', headers })).json<{ secret: string }>();
  const confirmed = await t.app.inject({ method: 'POST', url: '/api/totp/confirm', headers, payload: { code: codeAt(secret, -1) } });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  return { secret, codes: confirmed.json<{ recoveryCodes: string[] }>().recoveryCodes };
}

/** Each sign-in from an address of its own: the throttle's pair lockout must not mask the answer. */
const login = (app: FastifyInstance, otp: string, n = 1) =>
  app.inject({ method: 'POST', url: '/api/login', payload: { username: 'bob', password: defaultPasswordOf('bob'), otp }, remoteAddress: `10.0.0.${n}` });

/** A second instance of `t`'s state: its own PostgreSQL store and ephemeral store, or `t`'s store on `ephemeral`. */
async function instance(t: TestApp, ephemeral: Ephemeral | undefined): Promise<FastifyInstance> {
  let store: Store = t.store;
  const url = t.config.databaseUrl;
  if (url !== undefined) {
    const opened = await openPgStore(url);
    closing.push(() => opened.store.close());
    store = opened.store;
  }
  const app = await buildApp({ store, config: t.config, assets: noAssets(), logger: false, ...(ephemeral ? { ephemeral } : {}) });
  closing.push(() => app.close());
  return app;
}

/** Two instances sharing the shared-ephemeral store: in-process, one store; on PostgreSQL, each its own on one database. */
async function twoInstances(t: TestApp): Promise<[FastifyInstance, FastifyInstance]> {
  let shared: Ephemeral | undefined;
  if (t.config.databaseUrl === undefined) {
    const memory = createMemoryEphemeral({ sweepMs: 0 });
    closing.push(() => memory.close());
    shared = memory;
  }
  return [await instance(t, shared), await instance(t, shared)];
}

describe('a TOTP code is accepted once', () => {
  it('in sequence, and the sign-in that uses it writes nothing to the state', async () => {
    const t = await start();
    const { secret } = await enrol(t);
    const code = codeAt(secret);
    const update = vi.spyOn(t.store, 'update');
    expect((await login(t.app, code)).statusCode).toBe(200);
    expect(update).not.toHaveBeenCalled();
    expect((await login(t.app, code, 2)).statusCode).toBe(401);
    // The next step's code is fresh; the current one, older, is refused after it too.
    expect((await login(t.app, codeAt(secret, 1), 3)).statusCode).toBe(200);
    expect((await login(t.app, code, 4)).statusCode).toBe(401);
  });

  it('in parallel: of 10 sign-ins with one code exactly one succeeds', async () => {
    const t = await start();
    const { secret } = await enrol(t);
    const code = codeAt(secret);
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => login(t.app, code, i + 1)));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, ...Array<number>(9).fill(401)]);
  });

  it('across two instances, in sequence and in parallel', async () => {
    const t = await start();
    const { secret } = await enrol(t);
    const [a, b] = await twoInstances(t);
    const code = codeAt(secret);
    expect((await login(a, code)).statusCode).toBe(200);
    expect((await login(b, code, 2)).statusCode).toBe(401);
    const next = codeAt(secret, 1);
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => login(i % 2 ? a : b, next, i + 3)));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, ...Array<number>(9).fill(401)]);
  });

  it('also when it turns two-factor sign-in off after a sign-in used it', async () => {
    const t = await start();
    const { secret } = await enrol(t);
    const code = codeAt(secret);
    expect((await login(t.app, code)).statusCode).toBe(200);
    const off = await t.app.inject({ method: 'DELETE', url: '/api/totp', headers: { 'x-auth': t.token('bob') }, payload: { code } });
    expect(off.statusCode).toBe(403);
  });
});

describe('a recovery code', () => {
  it('is used once, of 10 parallel sign-ins on two instances exactly one succeeds', async () => {
    const t = await start();
    const { codes } = await enrol(t);
    const [a, b] = await twoInstances(t);
    const [first = ''] = codes;
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => login(i % 2 ? a : b, first, i + 1)));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, ...Array<number>(9).fill(401)]);
    expect(t.store.data().totp?.[0]?.recovery).toHaveLength(9);
  });
});
