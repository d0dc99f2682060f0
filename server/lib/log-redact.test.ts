import { describe, expect, it } from 'vitest';
import { redactUrl } from './log-redact';

describe('redactUrl', () => {
  it.each([
    ['/api/auth/oidc/callback?code=abc&state=xyz&iss=http%3A%2F%2Fidp', '/api/auth/oidc/callback?code=[redacted]&state=[redacted]&iss=http%3A%2F%2Fidp'],
    ['/api/raw/a.txt?auth=eyJ.x.y', '/api/raw/a.txt?auth=[redacted]'],
    ['/api/resources/docs/?checksum=md5', '/api/resources/docs/?checksum=md5'],
  ])('%s logs as %s', (url, logged) => {
    expect(redactUrl(url)).toBe(logged);
  });
});
