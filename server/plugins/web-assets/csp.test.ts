import { describe, expect, it } from 'vitest';
import { indexCsp } from './csp';

function directive(csp: string, name: string): string | undefined {
  return csp.split('; ').find((d) => d.startsWith(`${name} `));
}

describe('indexCsp', () => {
  it.each([
    [undefined, "script-src 'self' 'nonce-N'", "frame-src 'self'"],
    ['https://www.google.com', "script-src 'self' 'nonce-N' https://www.google.com https://www.gstatic.com", "frame-src 'self' https://www.google.com https://www.gstatic.com"],
    ['https://captcha.example:8443/path', "script-src 'self' 'nonce-N' https://captcha.example:8443", "frame-src 'self' https://captcha.example:8443"],
    ['javascript:alert(1)', "script-src 'self' 'nonce-N'", "frame-src 'self'"],
    ['not a url', "script-src 'self' 'nonce-N'", "frame-src 'self'"],
  ])('with reCAPTCHA host %s allows %s', (host, script, frame) => {
    const csp = indexCsp('N', host);
    expect(directive(csp, 'script-src')).toBe(script);
    expect(directive(csp, 'frame-src')).toBe(frame);
  });

  it.each([
    ['default-src', "default-src 'self'"],
    ['object-src', "object-src 'none'"],
    ['base-uri', "base-uri 'self'"],
    ['frame-ancestors', "frame-ancestors 'self'"],
    ['style-src', "style-src 'self' 'unsafe-inline'"],
  ])('always sets %s', (name, value) => {
    expect(directive(indexCsp('N'), name)).toBe(value);
  });
});
