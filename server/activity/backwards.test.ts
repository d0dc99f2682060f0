import { mkdtemp, open, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dirsRemovedAfterEachTest } from '../../tests/support/per-test';
import { linesBackwards } from './backwards';
import { csvCell } from './csv';

const dirs = dirsRemovedAfterEachTest();

async function backwards(text: string, chunkSize: number, end = Buffer.byteLength(text)): Promise<Array<[string, number]>> {
  const dir = await mkdtemp(join(tmpdir(), 'filemgr-backwards-'));
  dirs.push(dir);
  const path = join(dir, 'log');
  await writeFile(path, text);
  const handle = await open(path, 'r');
  try {
    const out: Array<[string, number]> = [];
    for await (const lines of linesBackwards(handle, end, chunkSize)) out.push(...lines.map((l): [string, number] => [l.line, l.start]));
    return out;
  } finally {
    await handle.close();
  }
}

describe('linesBackwards', () => {
  const lines = ['first', '', 'a much longer line than the chunk', 'é ü 日本', 'x', 'last'];
  const text = `${lines.join('\n')}\n`;

  it.each([1, 2, 3, 7, 64, 65536])('gives every non-empty line, last first, with its start, in chunks of %i bytes', async (chunk) => {
    const expected: Array<[string, number]> = [];
    let at = 0;
    for (const line of lines) {
      if (line !== '') expected.push([line, at]);
      at += Buffer.byteLength(line) + 1;
    }
    expect(await backwards(text, chunk)).toEqual(expected.reverse());
  });

  it('starts from a given end (a cursor) and reads a last line without a newline', async () => {
    expect((await backwards('one\ntwo\nthree', 4)).map(([l]) => l)).toEqual(['three', 'two', 'one']);
    expect((await backwards('one\ntwo\nthree\n', 4, 8)).map(([l]) => l)).toEqual(['two', 'one']);
  });
});

describe('csvCell', () => {
  it.each([
    ['plain', 'plain'], ['a,b', '"a,b"'], ['say "hi"', '"say ""hi"""'], ['two\nlines', '"two\nlines"'],
    ['=1+1', "'=1+1"], ['+1', "'+1"], ['-1', "'-1"], ['@SUM(A1)', "'@SUM(A1)"], ['=HYPERLINK("x","y")', '"\'=HYPERLINK(""x"",""y"")"'], ['/-path', '/-path'],
  ])('writes %j as %s', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });

  it('writes numbers as they are', () => {
    expect(csvCell(-1)).toBe('-1');
  });
});
