import { describe, expect, it } from 'vitest';
import { clashesOf, jobsOf, renameClashing, type Entry } from './entries';

const file = (name: string, size = 1): File => ({ name, size, webkitRelativePath: '' }) as File;

const BATCH: Entry[] = [
  { relPath: 'a.txt', file: file('a.txt', 3) },
  { relPath: 'photos/x.jpg', file: file('x.jpg', 5) },
  { relPath: 'photos/2024/y.jpg', file: file('y.jpg', 7) },
  { relPath: 'empty', file: null },
  { relPath: 'new.txt', file: file('new.txt') },
];

describe('upload entries', () => {
  it('finds the clashes among the top-level names only', () => {
    expect([...clashesOf(BATCH, new Set(['a.txt', 'photos', 'x.jpg', 'empty']))].sort()).toEqual(['a.txt', 'empty', 'photos']);
    expect(clashesOf(BATCH, new Set(['other'])).size).toBe(0);
  });

  it('renames each clashing top-level item once, keeping the tree below it, and avoids the batch\'s own names', () => {
    const taken = new Set(['a.txt', 'photos', 'a (1).txt']);
    const renamed = renameClashing(BATCH, new Set(['a.txt', 'photos']), taken);
    expect(renamed.map((e) => e.relPath)).toEqual(['a (2).txt', 'photos (1)/x.jpg', 'photos (1)/2024/y.jpg', 'empty', 'new.txt']);
    expect(renamed[0]?.file).toBe(BATCH[0]?.file);
  });

  it('makes jobs with the target path, the file name and the size; folders end with /', () => {
    const jobs = jobsOf(BATCH, '/docs/', true);
    expect(jobs.map((j) => [j.name, j.path, j.size, j.overwrite])).toEqual([
      ['a.txt', '/docs/a.txt', 3, true],
      ['x.jpg', '/docs/photos/x.jpg', 5, true],
      ['y.jpg', '/docs/photos/2024/y.jpg', 7, true],
      ['empty', '/docs/empty/', 0, true],
      ['new.txt', '/docs/new.txt', 1, true],
    ]);
  });
});
