import { describe, expect, it } from 'vitest';
import type { FileInfo } from '../../api/types';
import { extensionOf, isTiffLike, neighboursOf } from './neighbours';

function file(name: string, type: FileInfo['type'], isDir = false): FileInfo {
  return { path: `/f/${name}`, name, size: 1, extension: extensionOf(name), modified: '2024-01-01T00:00:00Z', mode: 420, isDir, isSymlink: false, type };
}

const ITEMS = [
  file('sub', '', true),
  file('a.jpg', 'image'),
  file('b.txt', 'text'),
  file('c.pdf', 'pdf'),
  file('d.mp4', 'video'),
  file('e.bin', 'blob'),
  file('f.stl', 'stl'),
];

describe('neighboursOf', () => {
  it.each([
    ['a.jpg', undefined, 'd.mp4'],
    ['d.mp4', 'a.jpg', 'e.bin'],
    ['e.bin', 'd.mp4', undefined],
    ['c.pdf', 'a.jpg', 'd.mp4'],
    ['f.stl', 'e.bin', undefined],
  ])('around %s skips folders, text, pdf and models: previous %s, next %s', (name, previous, next) => {
    const found = neighboursOf(ITEMS, `/f/${name}`);
    expect(found.previous?.name).toBe(previous);
    expect(found.next?.name).toBe(next);
  });

  it('has none for a file that is not listed', () => {
    expect(neighboursOf(ITEMS, '/f/gone.jpg')).toEqual({});
  });
});

describe('isTiffLike', () => {
  it.each([['x.tif', true], ['X.TIFF', true], ['raw.dng', true], ['c.CR2', true], ['n.nef', true], ['p.png', false], ['tif', false]])('%s -> %s', (name, expected) => {
    expect(isTiffLike(name)).toBe(expected);
  });
});
