import { describe, expect, it } from 'vitest';
import { resolveTheme } from './theme';

describe('resolveTheme', () => {
  it.each([
    [null, '', 'light'],
    [null, 'dark', 'dark'],
    [null, 'light', 'light'],
    [null, 'solarized', 'light'],
    ['', 'dark', 'light'],
    ['dark', '', 'dark'],
    ['dark', 'light', 'dark'],
  ] as const)('own choice %j with branding %j gives %s', (own, branding, expected) => {
    expect(resolveTheme(own, branding)).toBe(expected);
  });

  it.each([
    ['system', '', true, 'dark'],
    ['system', 'dark', false, 'light'],
    [null, '', true, 'light'],
    ['', 'dark', true, 'light'],
  ] as const)('own choice %j with branding %j, the system dark: %s, gives %s', (...[own, branding, systemDark, expected]) => {
    expect(resolveTheme(own, branding, systemDark)).toBe(expected);
  });
});
