import { describe, expect, it } from 'vitest';
import { freeName } from './free-name';

describe('freeName', () => {
  it.each([
    { name: 'a.txt', taken: [], isDir: false, expected: 'a.txt' },
    { name: 'a.txt', taken: ['a.txt'], isDir: false, expected: 'a (1).txt' },
    { name: 'a.txt', taken: ['a.txt', 'a (1).txt', 'a (2).txt'], isDir: false, expected: 'a (3).txt' },
    { name: 'archive.tar.gz', taken: ['archive.tar.gz'], isDir: false, expected: 'archive.tar (1).gz' },
    { name: '.bashrc', taken: ['.bashrc'], isDir: false, expected: '.bashrc (1)' },
    { name: 'README', taken: ['README'], isDir: false, expected: 'README (1)' },
    { name: 'photos.2024', taken: ['photos.2024'], isDir: true, expected: 'photos.2024 (1)' },
    { name: 'photos', taken: ['photos', 'photos (1)'], isDir: true, expected: 'photos (2)' },
  ])('names $name among $taken (folder: $isDir) $expected', ({ name, taken, isDir, expected }) => {
    expect(freeName(name, new Set(taken), isDir)).toBe(expected);
  });
});
