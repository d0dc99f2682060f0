import { describe, expect, it } from 'vitest';
import { parseGoDuration, tokenLifetimeMs } from './go-duration';

describe('Go durations', () => {
  it.each([
    ['2h', 7_200_000],
    ['90m', 5_400_000],
    ['1h30m', 5_400_000],
    ['45s', 45_000],
    ['1.5h', 5_400_000],
    ['500ms', 500],
    ['0', 0],
    ['-1m', -60_000],
  ])('parses %s', (text, ms) => {
    expect(parseGoDuration(text)).toBe(ms);
  });

  it.each(['', '2', 'h', '2x', '1h 30m', 'abc'])('refuses %j', (text) => {
    expect(parseGoDuration(text)).toBeUndefined();
  });

  it.each([['', 7_200_000], ['nonsense', 7_200_000], ['-5m', 7_200_000], ['30m', 1_800_000]])('gives the token lifetime of %j', (text, ms) => {
    expect(tokenLifetimeMs(text)).toBe(ms);
  });
});
