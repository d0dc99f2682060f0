import { describe, expect, it } from 'vitest';
import { sortLinks } from './state';

const link = (hash: string, expire: number) => ({ hash, path: '/a', userID: 1, expire, hasPassword: false, kind: 'download' as const, maxDownloads: 0, downloads: 0, uploads: 0 });

describe('sortLinks', () => {
  it('puts permanent links first, then the soonest to expire', () => {
    const sorted = sortLinks([link('c', 300), link('p1', 0), link('a', 100), link('p2', 0), link('b', 200)]);
    expect(sorted.map((l) => l.hash)).toEqual(['p1', 'p2', 'a', 'b', 'c']);
  });
});
