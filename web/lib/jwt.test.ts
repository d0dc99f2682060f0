import { describe, expect, it } from 'vitest';
import { decodeToken, msUntilExpiry } from './jwt';

function b64url(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url');
}

function token(payload: unknown): string {
  return `${b64url('{"alg":"HS256","typ":"JWT"}')}.${b64url(JSON.stringify(payload))}.c2lnbmF0dXJl`;
}

describe('decodeToken', () => {
  it('reads the user and the expiry from the payload', () => {
    const claims = decodeToken<{ id: number; username: string }>(
      token({ user: { id: 3, username: 'ana' }, exp: 1_700_000_000, iss: 'filemgr' }),
    );
    expect(claims).toEqual({ user: { id: 3, username: 'ana' }, exp: 1_700_000_000 });
  });

  it('decodes UTF-8 usernames that need the URL-safe alphabet', () => {
    const claims = decodeToken<{ username: string }>(token({ user: { username: 'Zoë ÿ?>~' }, exp: 1 }));
    expect(claims.user.username).toBe('Zoë ÿ?>~');
  });

  it.each([
    ['an empty string', ''],
    ['two parts', 'a.b'],
    ['four parts', 'a.b.c.d'],
    ['a payload that is not base64', 'a.@@@.c'],
    ['a payload that is not JSON', `a.${b64url('not json')}.c`],
    ['a payload without user', token({ exp: 1 })],
    ['a payload without exp', token({ user: { id: 1 } })],
    ['a string exp', token({ user: { id: 1 }, exp: '1' })],
    ['an array user', token({ user: [], exp: 1 })],
  ])('throws "token malformed" for %s', (_name, input) => {
    expect(() => decodeToken(input)).toThrow('token malformed');
  });
});

describe('msUntilExpiry', () => {
  it.each([
    [100, 90_000, 10_000],
    [100, 100_000, 0],
    [100, 130_500, -30_500],
  ])('exp %i at now %i ms leaves %i ms', (exp, now, expected) => {
    expect(msUntilExpiry(exp, now)).toBe(expected);
  });
});
