import { describe, expect, it } from 'vitest';
import { formatDateTime, formatDuration, formatRelative, formatSize, usedPercent } from './format';

describe('formatSize', () => {
  it.each([
    [0, 'en', '0 B'],
    [7, 'en', '7 B'],
    [1023, 'en', '1,023 B'],
    [1024, 'en', '1 KiB'],
    [4096, 'en', '4 KiB'],
    [1536, 'en', '1.5 KiB'],
    [1024 ** 2 * 10.26, 'en', '10.3 MiB'],
    [1024 ** 3 * 2, 'en', '2 GiB'],
    [1024 ** 4 * 3.5, 'en', '3.5 TiB'],
    [1024 ** 6, 'en', '1,024 PiB'],
    [1536, 'fr', '1,5 KiB'],
    [1024 ** 3 * 1.5, 'de', '1,5 GiB'],
    [-5, 'en', '0 B'],
    [1536, 'ar', '\u20661.5 KiB\u2069'],
    [7, 'he', '\u20667 B\u2069'],
  ])('formats %d bytes in %s as %s', (bytes, lang, expected) => {
    expect(formatSize(bytes, lang).replace(/\s/g, ' ')).toBe(expected);
  });
});

describe('formatDateTime', () => {
  it('formats with the locale and leaves invalid input empty', () => {
    const iso = '2024-05-01T12:00:00.123456789Z';
    expect(formatDateTime(iso, 'en')).toMatch(/2024/);
    expect(formatDateTime(iso, 'de')).toMatch(/01\.05\.2024|1\. Mai 2024|1\.05\.2024/);
    expect(formatDateTime('not a date', 'en')).toBe('');
  });
});

describe('usedPercent', () => {
  it.each([
    [0, 100, 0],
    [50, 200, 25],
    [1, 3, 33],
    [300, 200, 100],
    [10, 0, 0],
  ])('%d of %d is %d%%', (used, total, expected) => {
    expect(usedPercent(used, total)).toBe(expected);
  });
});

describe('formatRelative', () => {
  const now = 1_700_000_000_000;
  it.each([
    [1_700_000_000 + 3 * 3600, 'en', 'in 3 hours'],
    [1_700_000_000 - 2 * 86_400, 'en', '2 days ago'],
    [1_700_000_000 + 90, 'en', 'in 2 minutes'],
    [1_700_000_000, 'en', 'now'],
    [1_700_000_000 + 86_400, 'de', 'morgen'],
    [1_700_000_000 + 400 * 86_400, 'en', 'next year'],
  ])('%i is "%s" in %s', (when, lang, expected) => {
    expect(formatRelative(when, now, lang)).toBe(expected);
  });
});

describe('formatDuration', () => {
  it.each([
    [0, '0 sec'],
    [45, '45 sec'],
    [125, '2 min'],
    [7200, '2 hr'],
  ])('writes %s s as %s in English', (seconds, expected) => {
    expect(formatDuration(seconds, 'en')).toBe(expected);
  });
});
