import { describe, expect, it } from 'vitest';
import { domString } from './dom-string';

describe('domString', () => {
  it('keeps every character, in names of any length and script', () => {
    for (const name of ['', 'a', 'f-000001.txt', 'a rather long file name that goes on.tar.gz', 'تقرير نهائي.pdf', '😀 photo.jpg', ' padded ']) {
      expect(domString(name)).toBe(name);
    }
  });
});
