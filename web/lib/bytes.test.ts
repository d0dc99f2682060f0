import { describe, expect, it } from 'vitest';
import { formatBytes, parseBytes } from './bytes';

describe('parseBytes', () => {
  it.each([
    ['0', 0],
    ['300', 300],
    ['300B', 300],
    ['1k', 1024],
    ['1KB', 1024],
    ['10MB', 10 * 1024 ** 2],
    ['10 mb', 10 * 1024 ** 2],
    ['1.5M', 1.5 * 1024 ** 2],
    ['2g', 2 * 1024 ** 3],
    ['1 TB', 1024 ** 4],
    [' 5 Kb ', 5 * 1024],
  ])('reads %j as %d bytes', (text, bytes) => {
    expect(parseBytes(text)).toBe(bytes);
  });

  it.each(['', 'MB', '10 XB', '-1MB', '1,5MB', '10 MiB', '1e3', '9'.repeat(30)])('refuses %j', (text) => {
    expect(parseBytes(text)).toBeNull();
  });
});

describe('formatBytes', () => {
  it.each([
    [0, '0B'],
    [300, '300B'],
    [1024, '1KB'],
    [10 * 1024 ** 2, '10MB'],
    [1.5 * 1024 ** 3, '1.5GB'],
    [3 * 1024 ** 4, '3TB'],
  ])('writes %d bytes as %s, which reads back the same', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
    expect(parseBytes(text)).toBe(bytes);
  });
});
