import { describe, expect, it } from 'vitest';
import { authCookie, expiredAuthCookie } from './cookie';

describe('auth cookie', () => {
  it('is strict, site-wide, and secure only over https', () => {
    expect(authCookie('a.b.c', false)).toBe('auth=a.b.c; Path=/; SameSite=Strict');
    expect(authCookie('a.b.c', true)).toBe('auth=a.b.c; Path=/; SameSite=Strict; Secure');
    expect(expiredAuthCookie()).toBe('auth=; Path=/; SameSite=Strict; Max-Age=0');
  });
});
