import { describe, expect, it } from 'vitest';
import { naturalCompare, naturalKey, type Sortable, sortItems } from './sort';

const item = (name: string, isDir: boolean, [size, mtime]: [number, number]): Sortable & { id: string } => ({
  id: name,
  name,
  isDir,
  size,
  mtimeNs: BigInt(mtime),
});

const sample = () => [
  item('b10.txt', false, [30, 3]),
  item('B2.txt', false, [10, 1]),
  item('zdir', true, [4096, 2]),
  item('a.txt', false, [20, 5]),
  item('adir', true, [8192, 4]),
];

const names = (xs: { id: string }[]) => xs.map((x) => x.id);

describe('sortItems', () => {
  it.each([
    [{ by: 'name', asc: false }, ['adir', 'zdir', 'a.txt', 'B2.txt', 'b10.txt']],
    [{ by: 'name', asc: true }, ['zdir', 'adir', 'b10.txt', 'B2.txt', 'a.txt']],
    [{ by: 'size', asc: true }, ['zdir', 'adir', 'B2.txt', 'a.txt', 'b10.txt']],
    [{ by: 'size', asc: false }, ['b10.txt', 'a.txt', 'B2.txt', 'adir', 'zdir']],
    [{ by: 'modified', asc: true }, ['B2.txt', 'zdir', 'b10.txt', 'adir', 'a.txt']],
    [{ by: 'modified', asc: false }, ['a.txt', 'adir', 'b10.txt', 'zdir', 'B2.txt']],
    [{ by: '', asc: false }, ['b10.txt', 'B2.txt', 'zdir', 'a.txt', 'adir']],
    [{ by: 'bogus', asc: true }, ['zdir', 'adir', 'b10.txt', 'B2.txt', 'a.txt']],
  ])('orders by %j as api.md 5.6 observes', (sorting, expected) => {
    expect(names(sortItems(sample(), sorting))).toEqual(expected);
  });
});

describe('naturalCompare', () => {
  it.each([
    ['file2', 'file10', -1],
    ['file10', 'file2', 1],
    ['a', 'b', -1],
    ['x01', 'x1', 1],
    ['abc', 'abc', 0],
    ['img9.png', 'img10.png', -1],
    ['99999999999999999999a', '100000000000000000000a', -1],
  ])('compares %j with %j as %i', (a, b, sign) => {
    expect(Math.sign(naturalCompare(a, b))).toBe(sign);
  });
});

describe('naturalKey', () => {
  const names = ['file2', 'file10', 'file02', 'file002', 'file', 'file-', 'file-1', 'file-1.txt', 'file-10.txt', 'file-9.txt', 'a', 'ab', 'abc', 'ab1', 'ab10', 'ab01',
    '1', '01', '001', '10', '9a', '9', '0', '00', 'a0b', 'a00b', 'a0', 'x.y', 'x y', 'x_1', 'x-1', '\u00e9t\u00e9', 'z\u4e2d', '99999999999999999999a', '100000000000000000000a', '.hidden', '~tmp', '12abc', '12', 'abc12'];
  it('orders every pair of names as naturalCompare does', () => {
    for (const a of names) {
      for (const b of names) {
        const byKey = naturalKey(a) < naturalKey(b) ? -1 : naturalKey(a) > naturalKey(b) ? 1 : 0;
        expect([a, b, byKey]).toEqual([a, b, Math.sign(naturalCompare(a, b))]);
      }
    }
  });
});
