import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { hasTotp } from '../../accounts/totp';
import { appsForEachTest } from '../../../tests/support/per-test';
import { defaultPasswordOf, TEST_ADMIN, type TestApp } from '../../../tests/support/test-app';

const start = appsForEachTest();

const codeAt = (secret: string, offsetSteps = 0): string =>
  new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + offsetSteps * 30_000 });

/** Enrols `username` (default bob, created): the secret and the ten recovery codes. */
async function enrol(t: TestApp, username = 'bob'): Promise<{ secret: string; codes: string[] }> {
  if (!t.store.data().users.some((u) => u.username === username)) await t.addUser({ username });
  const headers = { 'x-auth': t.token(username) };
  const started = await t.app.inject({ method: 'POST', url: '/api/totp', headers });
  expect(started.statusCode).toBe(200);
  const { secret, uri } = started.json<{ secret: string; uri: string }>();
  expect(uri).toMatch(/^otpauth:\/\/totp\/.*secret=/);
  expect(uri).toContain(`secret=${secret}`);
  // A step before now: the tests' own codes for "now" are still fresh afterwards.
  const confirmed = await t.app.inject({ method: 'POST', url: '/api/totp/confirm', headers, payload: { code: codeAt(secret, -1) } });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  return { secret, codes: confirmed.json<{ recoveryCodes: string[] }>().recoveryCodes };
}

const login = (t: TestApp, body: object, address = '127.0.0.1') =>
  t.app.inject({ method: 'POST', url: '/api/login', payload: JSON.stringify({ username: 'bob', password: defaultPasswordOf('bob'), ...body }), remoteAddress: address });

describe('two-factor enrolment (beyond.md §4.2)', () => {
  it('turns on only with a right code, and answers ten distinct recovery codes', async () => {
    const t = await start();
    await t.addUser({ username: 'bob' });
    const headers = { 'x-auth': t.token('bob') };
    const { secret } = (await t.app.inject({ method: 'POST', url: '/api/totp', headers })).json<{ secret: string }>();
    expect(hasTotp(t.store.data(), 2)).toBe(false);
    const wrong = await t.app.inject({ method: 'POST', url: '/api/totp/confirm', headers, payload: { code: '000000' === codeAt(secret) ? '111111' : '000000' } });
    expect(wrong.statusCode).toBe(403);
    const right = await t.app.inject({ method: 'POST', url: '/api/totp/confirm', headers, payload: { code: codeAt(secret) } });
    const codes = right.json<{ recoveryCodes: string[] }>().recoveryCodes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    expect(hasTotp(t.store.data(), 2)).toBe(true);
    const status = await t.app.inject({ method: 'GET', url: '/api/totp', headers });
    expect(status.json()).toEqual({ enabled: true, required: false, recoveryCodesLeft: 10 });
    expect((await t.app.inject({ method: 'POST', url: '/api/totp', headers })).statusCode).toBe(409);
  });

  it('keeps the secret and the recovery codes only encrypted or hashed', async () => {
    const t = await start();
    const { secret, codes } = await enrol(t);
    const state = JSON.stringify(t.store.data());
    expect(state).not.toContain(secret);
    for (const c of codes) expect(state).not.toContain(c);
  });
});

describe('POST /api/login with two-factor sign-in on', () => {
  it('asks for the code with 401 and X-Filemgr-Otp: required, without counting a failure', async () => {
    const t = await start();
    const { secret } = await enrol(t);
    for (let i = 0; i < 6; i++) {
      const res = await login(t, {});
      expect(res.statusCode).toBe(401);
      expect(res.headers['x-filemgr-otp']).toBe('required');
    }
    expect((await login(t, { otp: codeAt(secret) })).statusCode).toBe(200);
  });

  it('refuses a wrong code with a plain 401 and counts it: five lock the pair out', async () => {
    const t = await start();
    const { secret } = await enrol(t);
    const wrong = codeAt(secret) === '123456' ? '654321' : '123456';
    for (let i = 0; i < 5; i++) {
      const res = await login(t, { otp: wrong });
      expect(res.statusCode).toBe(401);
      expect(res.headers['x-filemgr-otp']).toBeUndefined();
    }
    expect((await login(t, { otp: codeAt(secret) })).statusCode).toBe(429);
  });

  it('refuses a replayed code', async () => {
    const t = await start();
    const { secret } = await enrol(t);
    const code = codeAt(secret);
    expect((await login(t, { otp: code })).statusCode).toBe(200);
    expect((await login(t, { otp: code })).statusCode).toBe(401);
  });

  it('refuses a code of a step at or before the last one used', async () => {
    const t = await start();
    const { secret } = await enrol(t);
    expect((await login(t, { otp: codeAt(secret, 1) })).statusCode).toBe(200);
    expect((await login(t, { otp: codeAt(secret, 0) })).statusCode).toBe(401);
  });

  it.each([
    [-1, 200], [1, 200], [-2, 401], [2, 401],
  ])('accepts one step of drift (offset %i → %i)', async (offset, status) => {
    const t = await start();
    await t.addUser({ username: 'bob' });
    const headers = { 'x-auth': t.token('bob') };
    const { secret } = (await t.app.inject({ method: 'POST', url: '/api/totp', headers })).json<{ secret: string }>();
    // The confirmation used a code; forgetting its step lets every offset be tried fresh.
    await t.app.inject({ method: 'POST', url: '/api/totp/confirm', headers, payload: { code: codeAt(secret, -1) } });
    await t.store.update((db) => {
      for (const r of db.totp ?? []) r.lastStep = 0;
    });
    expect((await login(t, { otp: codeAt(secret, offset) })).statusCode).toBe(status);
  });

  it('accepts a recovery code once, with or without its dash', async () => {
    const t = await start();
    const { codes } = await enrol(t);
    const [first = '', second = ''] = codes;
    expect((await login(t, { otp: first })).statusCode).toBe(200);
    expect((await login(t, { otp: first })).statusCode).toBe(401);
    expect((await login(t, { otp: second.replace('-', '').toUpperCase() })).statusCode).toBe(200);
    const status = await t.app.inject({ method: 'GET', url: '/api/totp', headers: { 'x-auth': t.token('bob') } });
    expect(status.json<{ recoveryCodesLeft: number }>().recoveryCodesLeft).toBe(8);
  });

  it('still answers 403 for a wrong password, with or without a code', async () => {
    const t = await start();
    const { secret } = await enrol(t);
    expect((await login(t, { password: 'nope' })).statusCode).toBe(403);
    expect((await login(t, { password: 'nope', otp: codeAt(secret) })).statusCode).toBe(403);
  });
});

describe('turning two-factor sign-in off', () => {
  it.each([
    ['a current code', (s: { secret: string }) => ({ code: codeAt(s.secret) })],
    ['a recovery code', (s: { codes: string[] }) => ({ code: s.codes[3] })],
    ['the current password', () => ({ current_password: defaultPasswordOf('bob') })],
  ])('works with %s', async (_what, body) => {
    const t = await start();
    const enrolled = await enrol(t);
    const res = await t.app.inject({ method: 'DELETE', url: '/api/totp', headers: { 'x-auth': t.token('bob') }, payload: body(enrolled) });
    expect(res.statusCode, res.body).toBe(200);
    expect(hasTotp(t.store.data(), 2)).toBe(false);
    expect((await login(t, {})).statusCode).toBe(200);
  });

  it.each([
    ['a wrong code', { code: '000001' }, 403],
    ['a wrong password', { current_password: 'nope' }, 403],
    ['neither', {}, 400],
  ])('refuses %s', async (_what, payload, status) => {
    const t = await start();
    await enrol(t);
    const res = await t.app.inject({ method: 'DELETE', url: '/api/totp', headers: { 'x-auth': t.token('bob') }, payload });
    expect(res.statusCode).toBe(status);
    expect(hasTotp(t.store.data(), 2)).toBe(true);
  });

  it('lets an admin reset it with their own current password', async () => {
    const t = await start();
    await enrol(t);
    const reset = (password: string, who: string = TEST_ADMIN.username) =>
      t.app.inject({ method: 'DELETE', url: '/api/users/2/totp', headers: { 'x-auth': t.token(who) }, payload: { current_password: password } });
    expect((await reset('nope')).statusCode).toBe(403);
    expect((await reset(defaultPasswordOf('bob'), 'bob')).statusCode).toBe(403);
    expect(hasTotp(t.store.data(), 2)).toBe(true);
    expect((await reset(TEST_ADMIN.password)).statusCode).toBe(200);
    expect(hasTotp(t.store.data(), 2)).toBe(false);
    expect((await t.app.inject({ method: 'DELETE', url: '/api/users/77/totp', headers: { 'x-auth': t.token() }, payload: { current_password: TEST_ADMIN.password } })).statusCode).toBe(404);
  });
});

describe('requireTotp', () => {
  it('is a global setting, off by default, reported to each user by GET /api/totp', async () => {
    const t = await start();
    await t.addUser({ username: 'bob' });
    const admin = { 'x-auth': t.token() };
    const settings = (await t.app.inject({ method: 'GET', url: '/api/settings', headers: admin })).json<Record<string, unknown>>();
    expect(settings.requireTotp).toBe(false);
    const put = await t.app.inject({ method: 'PUT', url: '/api/settings', headers: admin, payload: { ...settings, requireTotp: true } });
    expect(put.statusCode, put.body).toBe(200);
    const status = await t.app.inject({ method: 'GET', url: '/api/totp', headers: { 'x-auth': t.token('bob') } });
    expect(status.json()).toEqual({ enabled: false, required: true, recoveryCodesLeft: 0 });
    // A client that does not know the field keeps it.
    const { requireTotp: _omitted, ...withoutIt } = settings;
    await t.app.inject({ method: 'PUT', url: '/api/settings', headers: admin, payload: withoutIt });
    expect(t.store.data().settings.requireTotp).toBe(true);
  });
});
