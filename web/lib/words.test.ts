import { describe, expect, it } from 'vitest';
import { splitLines, splitWords, wholeNumberOf } from './words';

describe('splitWords', () => {
  it.each([
    ['', []],
    ['   ', []],
    ['/bin/bash -c', ['/bin/bash', '-c']],
    ['ls  rm ', ['ls', 'rm']],
  ])('splits %j into %j', (text, words) => {
    expect(splitWords(text)).toEqual(words);
  });
});

describe('splitLines', () => {
  it.each([
    ['', []],
    ['echo a\n\n  \necho b\r\n', ['echo a', 'echo b']],
    ['one', ['one']],
  ])('splits %j into %j', (text, lines) => {
    expect(splitLines(text)).toEqual(lines);
  });
});

describe('wholeNumberOf', () => {
  it.each([
    ['', 100, 0],
    ['12', 100, 12],
    ['1a2', 100, 12],
    ['99999', 65535, 65535],
  ])('reads %j (at most %d) as %d', (text, max, value) => {
    expect(wholeNumberOf(text, max)).toBe(value);
  });
});
