import { describe, expect, it } from 'vitest';
import { resolveTheme } from './theme';

describe('resolveTheme', () => {
  it.each([
    ['dark', false, 'dark'],
    ['light', true, 'light'],
    ['', true, 'dark'],
    ['', false, 'light'],
    ['solarized', true, 'dark'],
  ])('setting %j with system dark %s gives %s', (setting, prefersDark, expected) => {
    expect(resolveTheme(setting, prefersDark)).toBe(expected);
  });
});
