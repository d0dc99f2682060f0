import { describe, expect, it } from 'vitest';
import { freeName } from './free-name';

describe('freeName', () => {
  it.each([
    ['a.txt', [], false, 'a.txt'],
    ['a.txt', ['a.txt'], false, 'a (1).txt'],
    ['a.txt', ['a.txt', 'a (1).txt', 'a (2).txt'], false, 'a (3).txt'],
    ['archive.tar.gz', ['archive.tar.gz'], false, 'archive.tar (1).gz'],
    ['.bashrc', ['.bashrc'], false, '.bashrc (1)'],
    ['README', ['README'], false, 'README (1)'],
    ['photos.2024', ['photos.2024'], true, 'photos.2024 (1)'],
    ['photos', ['photos', 'photos (1)'], true, 'photos (2)'],
  ])('names %s among %j (folder %s) %s', (name, taken, isDir, expected) => {
    expect(freeName(name, new Set(taken), isDir)).toBe(expected);
  });
});
