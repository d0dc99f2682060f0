import { describe, expect, it } from 'vitest';
import { closest, editDistance } from './suggest';

describe('did-you-mean suggestions', () => {
  it.each([
    ['port', 'port', 0],
    ['prot', 'port', 1],
    ['', 'abc', 3],
    ['signup', 'singup', 1],
    ['kitten', 'sitting', 3],
  ])('counts %j -> %j as %i edits', (a, b, n) => {
    expect(editDistance(a, b)).toBe(n);
    expect(editDistance(b, a)).toBe(n);
  });

  it.each([
    ['prot', 'port'],
    ['baseUrl', 'baseURL'],
    ['disableThumbnail', 'disableThumbnails'],
    ['adress', 'address'],
    ['xyz', undefined],
    ['p', undefined],
  ])('suggests for --%s: %s', (word, expected) => {
    expect(closest(word, ['port', 'address', 'baseURL', 'disableThumbnails', 'root'])).toBe(expected);
  });
});
