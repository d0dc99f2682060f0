import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashRecoveryCode, newRecoveryCodes, openSecret, sealSecret } from './totp-secret';

const key = () => randomBytes(64).toString('base64');

describe('TOTP secrets at rest', () => {
  it('opens what it sealed, and each seal differs (random IV)', () => {
    const k = key();
    const a = sealSecret(k, 'JBSWY3DPEHPK3PXP');
    expect(a).not.toContain('JBSWY3DPEHPK3PXP');
    expect(sealSecret(k, 'JBSWY3DPEHPK3PXP')).not.toBe(a);
    expect(openSecret(k, a)).toBe('JBSWY3DPEHPK3PXP');
  });

  it.each([
    ['another signing key', (sealed: string) => ({ k: key(), sealed })],
    ['a changed ciphertext', (sealed: string) => ({ k: '', sealed: sealed.replace(/\.(.)/, (_m, c: string) => `.${c === 'A' ? 'B' : 'A'}`) })],
    ['a damaged shape', () => ({ k: '', sealed: 'not.sealed' })],
  ])('refuses %s (null, never a throw)', (_what, change) => {
    const k = key();
    const { k: other, sealed } = change(sealSecret(k, 'JBSWY3DPEHPK3PXP'));
    expect(openSecret(other || k, sealed)).toBeNull();
  });
});

describe('recovery codes', () => {
  it('are ten distinct xxxxx-xxxxx codes without look-alike characters', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[a-hjkmnp-z2-9]{5}-[a-hjkmnp-z2-9]{5}$/);
  });

  it('hash the same typed with spaces, without the dash or in capitals', () => {
    expect(hashRecoveryCode(' ABCDE fghjk ')).toBe(hashRecoveryCode('abcde-fghjk'));
    expect(hashRecoveryCode('abcde-fghjk')).not.toBe(hashRecoveryCode('abcde-fghjm'));
  });
});
