import { describe, expect, it } from 'vitest';
import { CommandParseError, splitCommandLine } from './split';
import { splitWindowsWords } from './windows-split';

describe('splitCommandLine, POSIX (runner/commands_test.go)', () => {
  it.each([
    ['command', ['command']],
    ['command arg1', ['command', 'arg1']],
    ['command arg1 arg2', ['command', 'arg1', 'arg2']],
    ['command "arg1 arg1"', ['command', 'arg1 arg1']],
    ['command arg1    arg2\targ3', ['command', 'arg1', 'arg2', 'arg3']],
    ['command arg1\\ arg2', ['command', 'arg1 arg2']],
    ["command 'arg1\\ arg2'", ['command', 'arg1\\ arg2']],
    ['mkdir -p /path/with\\ space', ['mkdir', '-p', '/path/with space']],
  ])('splits %j into %j', (line, words) => {
    const { command, args } = splitCommandLine(line, 'linux');
    expect([command, ...args]).toEqual(words);
  });

  it.each([
    ['', "no command contained in ''"],
    ['   ', "no command contained in '   '"],
    ['command "arg1 arg2', 'error parsing command:'],
    ['command \'arg1 arg2"', 'error parsing command:'],
  ])('refuses %j with a message starting %j', (line, message) => {
    expect(() => splitCommandLine(line, 'linux')).toThrow(CommandParseError);
    expect(() => splitCommandLine(line, 'linux')).toThrow(message);
  });
});

describe('splitCommandLine, Windows (runner/commands_test.go)', () => {
  it.each([
    ['', []],
    ['cmd', ['cmd']],
    ['cmd arg1 arg2', ['cmd', 'arg1', 'arg2']],
    ['cmd "combined arg" arg2', ['cmd', 'combined arg', 'arg2']],
    ['mkdir C:\\Windows\\foo\\bar', ['mkdir', 'C:\\Windows\\foo\\bar']],
    ['"command here"', ['command here']],
    ['cmd ""arg""', ['cmd', '"arg"']],
    ['cmd \\"arg\\"', ['cmd', '"arg"']],
    ['cmd "a ""quoted value"', ['cmd', 'a "quoted value']],
    ['cmd a ""quoted value', ['cmd', 'a', '"quoted', 'value']],
    ['mkdir "C:\\directory name\\foobar"', ['mkdir', 'C:\\directory name\\foobar']],
    ['mkdir C:\\ space', ['mkdir', 'C:\\', 'space']],
    ['mkdir "C:\\ space"', ['mkdir', 'C:\\ space']],
    ['mkdir \\\\?\\C:\\Users', ['mkdir', '\\\\?\\C:\\Users']],
    ['mkdir "\\\\?\\C:\\Program Files"', ['mkdir', '\\\\?\\C:\\Program Files']],
    ['mkdir "c:\\Program files', ['mkdir', 'c:\\Program files']],
    ['mkdir "c:\\P"rogra"m f"iles', ['mkdir', 'c:\\Program files']],
    ['  cmd   two  ', ['cmd', 'two']],
  ])('splits %j into %j', (line, words) => {
    expect(splitWindowsWords(line)).toEqual(words);
  });

  it('splits into program and arguments: mkdir /P "C:\\Program Files"', () => {
    expect(splitCommandLine('mkdir /P "C:\\Program Files"', 'win32')).toEqual({ command: 'mkdir', args: ['/P', 'C:\\Program Files'] });
  });

  it('refuses a line without a command', () => {
    expect(() => splitCommandLine('   ', 'win32')).toThrow("no command contained in '   '");
  });
});
