import { describe, expect, it } from 'vitest';
import { contentRange, parseRange, selectRanges } from './http-range';

describe('parseRange', () => {
  it.each([
    ['bytes=0-4', 10, [{ start: 0, length: 5 }]],
    ['bytes=5-', 10, [{ start: 5, length: 5 }]],
    ['bytes=-3', 10, [{ start: 7, length: 3 }]],
    ['bytes=-30', 10, [{ start: 0, length: 10 }]],
    ['bytes=8-100', 10, [{ start: 8, length: 2 }]],
    ['bytes= 0-1 , 4-5', 10, [{ start: 0, length: 2 }, { start: 4, length: 2 }]],
    ['bytes=0-1,,', 10, [{ start: 0, length: 2 }]],
    ['bytes=0-1,20-30', 10, [{ start: 0, length: 2 }]],
  ])('reads %j of a %d-byte file', (header, size, ranges) => {
    expect(parseRange(header, size)).toEqual({ kind: 'ranges', ranges });
  });

  it.each([['items=0-1'], ['bytes=1'], ['bytes=a-b'], ['bytes=5-2'], ['bytes=--1'], ['bytes=-'], ['bytes=99999999999999999999-']])(
    'calls %j invalid',
    (header) => {
      expect(parseRange(header, 10)).toEqual({ kind: 'invalid' });
    },
  );

  it.each([['bytes=10-'], ['bytes=20-30'], ['bytes=-0']])('calls %j unsatisfiable for a 10-byte file', (header) => {
    expect(parseRange(header, 10)).toEqual({ kind: 'no-overlap' });
  });
});

describe('selectRanges', () => {
  it('serves the whole file without a Range header', () => {
    expect(selectRanges(undefined, 10)).toEqual([]);
    expect(selectRanges('', 10)).toEqual([]);
  });

  it('ignores ranges that add up to more than the file', () => {
    expect(selectRanges('bytes=0-7,2-9', 10)).toEqual([]);
  });

  it('serves an empty file whole even when the range cannot overlap it', () => {
    expect(selectRanges('bytes=0-5', 0)).toEqual([]);
  });

  it('answers 416 with the size in Content-Range when nothing overlaps', () => {
    expect(() => selectRanges('bytes=50-', 10)).toThrow(
      expect.objectContaining({ status: 416, headers: { 'content-range': 'bytes */10' } }),
    );
  });

  it('answers 416 without Content-Range for a malformed header', () => {
    expect(() => selectRanges('bytes=x', 10)).toThrow(expect.objectContaining({ code: 'range_not_satisfiable', headers: {} }));
  });
});

describe('contentRange', () => {
  it('writes the inclusive last byte', () => {
    expect(contentRange({ start: 2, length: 3 }, 10)).toBe('bytes 2-4/10');
  });
});
