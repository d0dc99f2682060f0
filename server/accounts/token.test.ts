import { createHmac, randomBytes } from 'node:crypto';
import fastifyJwt from '@fastify/jwt';
import Fastify from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { userFromDefaults } from './records';
import { nextEpoch } from './sessions';
import { quickSetupDefaults } from '../state/initial';
import type { UserRecord } from '../state/schema';
import { issueTime, looksLikeToken, tokenCodec, type TokenCodec } from './token';

const key = randomBytes(64).toString('base64');
const user: UserRecord = { ...userFromDefaults(quickSetupDefaults(), 'alice', '$2a$10$hash'), id: 7 };
const NOW = 1_800_000_000_000;

function forge(header: object, payload: object, signingKey = key): string {
  const h = Buffer.from(JSON.stringify(header)).toString('base64url');
  const p = Buffer.from(JSON.stringify(payload)).toString('base64url');
  const sig = createHmac('sha256', Buffer.from(signingKey, 'base64')).update(`${h}.${p}`).digest('base64url');
  return `${h}.${p}.${sig}`;
}

let codec: TokenCodec;
const signToken: TokenCodec['sign'] = (...args) => codec.sign(...args);
const verifyToken: TokenCodec['verify'] = (...args) => codec.verify(...args);

beforeAll(async () => {
  // Registered with another key on purpose: the codec must use the key of each call.
  const app = Fastify();
  await app.register(fastifyJwt, { secret: randomBytes(64) });
  codec = tokenCodec(app.jwt);
});

describe('tokens', () => {
  it('signs the claims of api.md 2.2 with iss filemgr and never the hash or scope', () => {
    const token = signToken(user, key, { lifetimeMs: 7_200_000, nowMs: NOW });
    const [header, payload] = token.split('.').slice(0, 2).map((p: string) => JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>);
    expect(header).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(payload).toMatchObject({ iss: 'filemgr', iat: NOW / 1000, exp: NOW / 1000 + 7200 });
    expect(Object.keys(payload!.user as object).sort()).toEqual(['aceEditorTheme', 'commands', 'dateFormat', 'hideDotfiles', 'id', 'locale', 'lockPassword', 'perm', 'redirectAfterCopyMove', 'singleClick', 'username', 'viewMode']);
    expect(token).not.toContain(Buffer.from('$2a$10$hash').toString('base64url'));
    expect(verifyToken(token, key, NOW + 1000)).toMatchObject({ ok: true });
  });

  it('issues tokens after the session epoch even when the clock says otherwise', () => {
    const ended = { ...user, sessionEpoch: NOW / 1000 + 5 };
    const token = signToken(ended, key, { lifetimeMs: 7_200_000, nowMs: NOW });
    const result = verifyToken(token, key, NOW);
    expect(result.ok && result.claims.iat).toBeGreaterThan(ended.sessionEpoch);
  });

  it.each([
    ['another key', () => signToken(user, randomBytes(64).toString('base64'), { lifetimeMs: 60_000, nowMs: NOW }), 'signature'],
    ['alg none', () => `${forge({ alg: 'none' }, { user: { id: 7 }, exp: NOW / 1000 + 60 }).split('.').slice(0, 2).join('.')}.`, 'malformed'],
    ['alg HS512', () => forge({ alg: 'HS512' }, { user: { id: 7 }, exp: NOW / 1000 + 60 }), 'malformed'],
    ['no exp', () => forge({ alg: 'HS256' }, { user: { id: 7 }, iat: NOW / 1000 }), 'claims'],
    ['a string exp', () => forge({ alg: 'HS256' }, { user: { id: 7 }, exp: 'never' }), 'claims'],
    ['no user', () => forge({ alg: 'HS256' }, { exp: NOW / 1000 + 60 }), 'claims'],
    ['expired', () => signToken(user, key, { lifetimeMs: 60_000, nowMs: NOW - 120_000 }), 'expired'],
    ['nbf in the future', () => forge({ alg: 'HS256' }, { user: { id: 7 }, exp: NOW / 1000 + 60, nbf: NOW / 1000 + 30 }), 'claims'],
    ['garbage', () => 'a.b.c', 'malformed'],
  ])('refuses a token with %s', (_name, make, reason) => {
    expect(verifyToken(make(), key, NOW)).toMatchObject({ ok: false, reason });
  });

  it('carries iat and exp in whole seconds, as upstream does', () => {
    const token = signToken(user, key, { lifetimeMs: 7_200_000, nowMs: NOW + 999 });
    const result = verifyToken(token, key, NOW + 1000);
    expect(result).toMatchObject({ ok: true, claims: { iat: NOW / 1000, exp: NOW / 1000 + 7200 } });
  });

  it('verifies a token another HS256 implementation signed with the same key (plain HMAC)', () => {
    const token = forge({ alg: 'HS256', typ: 'JWT' }, { user: { id: 7 }, iss: 'filemgr', iat: NOW / 1000, exp: NOW / 1000 + 60 });
    expect(verifyToken(token, key, NOW)).toMatchObject({ ok: true, claims: { user: { id: 7 } } });
  });

  it('still accepts a token of an earlier version whose iat has a millisecond fraction', () => {
    const token = forge({ alg: 'HS256', typ: 'JWT' }, { user: { id: 7 }, iat: NOW / 1000 + 0.123, exp: NOW / 1000 + 60 });
    expect(verifyToken(token, key, NOW + 500)).toMatchObject({ ok: true });
  });

  it('keeps the expired claims for the proxy-auth exception', () => {
    const token = signToken(user, key, { lifetimeMs: 60_000, nowMs: NOW - 120_000 });
    expect(verifyToken(token, key, NOW)).toMatchObject({ ok: false, reason: 'expired', claims: { user: { id: 7 } } });
  });

  it.each([
    ['a.b.c', true],
    ['a.b', false],
    ['a.b.c.d', false],
    ['', false],
    [undefined, false],
  ])('looksLikeToken(%j) is %s', (value, ok) => {
    expect(looksLikeToken(value)).toBe(ok);
  });
});

describe('session epochs and issue times', () => {
  it('ends a token issued in the same second, and the next token survives it', () => {
    const before = issueTime(user, NOW + 100);
    const epoch = nextEpoch(user, NOW + 400);
    expect(before).toBeLessThanOrEqual(epoch);
    const after = issueTime({ sessionEpoch: epoch }, NOW + 700);
    expect(after).toBeGreaterThan(epoch);
    expect(Number.isInteger(after) && Number.isInteger(epoch)).toBe(true);
  });

  it('moves forward even when two logouts fall in one second, past every token issued between them', () => {
    const first = nextEpoch(user, NOW);
    const issued = issueTime({ sessionEpoch: first }, NOW + 10);
    const second = nextEpoch({ sessionEpoch: first }, NOW + 20);
    expect(second).toBeGreaterThan(first);
    expect(issued).toBeLessThanOrEqual(second);
  });

  it('reads a fractional epoch of an earlier version', () => {
    const legacy = { sessionEpoch: NOW / 1000 + 0.5 };
    expect(issueTime(legacy, NOW)).toBeGreaterThan(legacy.sessionEpoch);
    expect(nextEpoch(legacy, NOW)).toBeGreaterThan(NOW / 1000 + 0.9);
  });
});
