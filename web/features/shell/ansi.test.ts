import { describe, expect, it } from 'vitest';
import { stripAnsi } from './ansi';

describe('stripAnsi', () => {
  it.each([
    ['plain', 'plain'],
    ['\u001b[31mred\u001b[0m text', 'red text'],
    ['\u001b[1;32mbold green\u001b[m', 'bold green'],
    ['\u001b]0;title\u0007after', 'after'],
    ['\u001b[2K\u001b[1Gprogress', 'progress'],
  ])('%j reads %j', (line, text) => {
    expect(stripAnsi(line)).toBe(text);
  });
});
