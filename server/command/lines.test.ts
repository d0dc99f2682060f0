import { describe, expect, it } from 'vitest';
import { lineSplitter } from './lines';

function split(chunks: (string | Buffer)[], max?: number): string[] {
  const out: string[] = [];
  const s = lineSplitter((line) => out.push(line), max);
  for (const c of chunks) s.push(Buffer.isBuffer(c) ? c : Buffer.from(c));
  s.end();
  return out;
}

describe('lineSplitter', () => {
  it.each([
    ['one line', ['a\n'], ['a']],
    ['lines across chunks', ['ab', 'c\nde', 'f\n'], ['abc', 'def']],
    ['CRLF endings', ['a\r\nb\r\n'], ['a', 'b']],
    ['a last line without newline', ['a\nb'], ['a', 'b']],
    ['empty lines', ['\n\na\n'], ['', '', 'a']],
    ['a lone carriage return inside a line', ['a\rb\n'], ['a\rb']],
    ['nothing', [], []],
  ])('hands on %s', (_name, chunks, lines) => {
    expect(split(chunks)).toEqual(lines);
  });

  it('hands on each line as soon as its newline arrives', () => {
    const out: string[] = [];
    const s = lineSplitter((line) => out.push(line));
    s.push(Buffer.from('first\nsec'));
    expect(out).toEqual(['first']);
    s.push(Buffer.from('ond\n'));
    expect(out).toEqual(['first', 'second']);
  });

  it('cuts a line longer than the limit into pieces of at most the limit', () => {
    expect(split(['abcdefghij\n'], 4)).toEqual(['abcd', 'efgh', 'ij']);
    expect(split(['abcdefghij'], 4)).toEqual(['abcd', 'efgh', 'ij']);
  });

  it('never cuts a UTF-8 character in two', () => {
    // 'é' is two bytes: a 5-byte limit over 'aéé' (5 bytes) fits; over 'aaéé' it cuts before an é.
    expect(split(['aaéé\n'], 5)).toEqual(['aaé', 'é']);
    expect(split([Buffer.from('€€'), Buffer.from('\n')], 4)).toEqual(['€', '€']);
  });

  it('joins a character split across chunks', () => {
    const euro = Buffer.from('€\n');
    expect(split([euro.subarray(0, 1), euro.subarray(1)])).toEqual(['€']);
  });

  it('holds at most the limit of a line without newline at any time', () => {
    const out: string[] = [];
    const s = lineSplitter((line) => out.push(line), 8);
    for (let i = 0; i < 5; i++) s.push(Buffer.from('xxxxx'));
    expect(out).toEqual(['xxxxxxxx', 'xxxxxxxx', 'xxxxxxxx']);
    s.end();
    expect(out[3]).toBe('x');
  });
});
