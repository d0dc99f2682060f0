import { describe, expect, it } from 'vitest';
import { splitCommand, splitWords } from './split-command';

describe('splitWords (POSIX)', () => {
  it.each([
    ['', []],
    ['command', ['command']],
    ['command arg1', ['command', 'arg1']],
    ['command arg1 arg2', ['command', 'arg1', 'arg2']],
    ['command "arg1 arg1"', ['command', 'arg1 arg1']],
    ['command arg1    arg2\targ3', ['command', 'arg1', 'arg2', 'arg3']],
    ['command arg1\\ arg2', ['command', 'arg1 arg2']],
    ["command 'arg1\\ arg2'", ['command', 'arg1\\ arg2']],
    ['mkdir -p /path/with\\ space', ['mkdir', '-p', '/path/with space']],
    ['echo "a;b" $X', ['echo', 'a;b', '$X']],
  ])('splits %j into %j', (line, words) => {
    expect(splitWords(line)).toEqual(words);
  });
});

describe('splitCommand', () => {
  it('separates the program from its arguments', () => {
    expect(splitCommand('command')).toEqual({ command: 'command', args: [] });
    expect(splitCommand('command arg1 arg2')).toEqual({ command: 'command', args: ['arg1', 'arg2'] });
  });

  it.each([
    ['', /^no command contained in/],
    ['command "arg1 arg2', /^error parsing command:/],
    ["command 'arg1 arg2\"", /^error parsing command:/],
  ])('refuses %j', (line, message) => {
    expect(() => splitCommand(line)).toThrow(message);
  });
});
