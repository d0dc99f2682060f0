import { parseSizeText } from '@contract/size-text';
import { describe, expect, it } from 'vitest';
import { quotaText } from './quota-field';

describe('quotaText (the user form\'s "Quota")', () => {
  it.each([
    [0, ''],
    [512, '512 B'],
    [1024 ** 2, '1 MiB'],
    [500 * 1024 ** 2, '500 MiB'],
    [1.5 * 1024 ** 3, '1.5 GiB'],
    [10 * 1024 ** 3, '10 GiB'],
    [3 * 1024 ** 4, '3 TiB'],
  ])('shows %i bytes as %j', (bytes, text) => {
    expect(quotaText(bytes)).toBe(text);
  });

  it.each([1, 1023, 1024, 5 * 1024 ** 2, 10 * 1024 ** 3, 7 * 1024 ** 5])('reads back what it shows for %i bytes', (bytes) => {
    expect(parseSizeText(quotaText(bytes))).toBe(bytes);
  });
});
