import { describe, expect, it } from 'vitest';
import { parseSizeText } from './size-text';

describe('parseSizeText', () => {
  it.each([
    ['0', 0],
    ['512', 512],
    ['500 B', 500],
    ['1K', 1024],
    ['500 MB', 500 * 1024 ** 2],
    ['500mb', 500 * 1024 ** 2],
    ['10 GiB', 10 * 1024 ** 3],
    ['10GiB', 10 * 1024 ** 3],
    ['1.5 g', 1.5 * 1024 ** 3],
    ['1,5 GB', 1.5 * 1024 ** 3],
    [' 2 TiB ', 2 * 1024 ** 4],
  ])('reads %j as %i bytes', (text, bytes) => {
    expect(parseSizeText(text)).toBe(bytes);
  });

  it.each(['', 'lots', '-5 MB', '10 GBs', '1e3', '5 XB', '99999999 PiB', '1.2.3 MB'])('refuses %j', (text) => {
    expect(parseSizeText(text)).toBeNull();
  });
});
