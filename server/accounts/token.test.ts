import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { userFromDefaults } from './records';
import { quickSetupDefaults } from '../state/initial';
import type { UserRecord } from '../state/schema';
import { looksLikeToken, signToken, verifyToken } from './token';

const key = randomBytes(64).toString('base64');
const user: UserRecord = { ...userFromDefaults(quickSetupDefaults(), 'alice', '$2a$10$hash'), id: 7 };
const NOW = 1_800_000_000_000;

function forge(header: object, payload: object, signingKey = key): string {
  const h = Buffer.from(JSON.stringify(header)).toString('base64url');
  const p = Buffer.from(JSON.stringify(payload)).toString('base64url');
  const sig = createHmac('sha256', Buffer.from(signingKey, 'base64')).update(`${h}.${p}`).digest('base64url');
  return `${h}.${p}.${sig}`;
}

describe('tokens', () => {
  it('signs the claims of api.md 2.2 with iss filemgr and never the hash or scope', () => {
    const token = signToken(user, key, { lifetimeMs: 7_200_000, nowMs: NOW });
    const [header, payload] = token.split('.').slice(0, 2).map((p) => JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>);
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
