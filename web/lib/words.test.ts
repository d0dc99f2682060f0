import { describe, expect, it } from 'vitest';
import { splitLines, splitWords } from './words';

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
