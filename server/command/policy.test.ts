import { describe, expect, it } from 'vitest';
import { decide, escapingArgument, NOT_ALLOWED, type CommandPolicy } from './policy';

const direct: CommandPolicy = { commands: ['ls', 'echo', 'cat', 'git'], shell: [], platform: 'linux' };
const shell: CommandPolicy = { ...direct, shell: ['/bin/sh', '-c'] };
const refused = { kind: 'refuse', message: NOT_ALLOWED };

describe('decide: what runs', () => {
  it.each([
    ['ls -la', ['ls', '-la']],
    ['echo "a b"', ['echo', 'a b']],
    ['cat notes.txt sub/dir/x.txt', ['cat', 'notes.txt', 'sub/dir/x.txt']],
    ['git log --format=%h', ['git', 'log', '--format=%h']],
    // Without a shell these are inert words handed to the program, never interpreted.
    ['echo $(id) `id` ;', ['echo', '$(id)', '`id`', ';']],
    ['echo ~', ['echo', '~']],
    ['ls .*', ['ls', '.*']],
  ])('runs %j directly as %j when no shell is configured', (line, argv) => {
    expect(decide(line, direct)).toEqual({ kind: 'run', argv });
  });

  it.each([['ls -la'], ['echo "a b"'], ['cat *.txt'], ['git log -n 3']])('hands %j whole to the configured shell', (line) => {
    expect(decide(line, shell)).toEqual({ kind: 'run', argv: ['/bin/sh', '-c', line] });
  });

  it('runs directly when the shell setting has a blank first word', () => {
    expect(decide('ls -la', { ...direct, shell: ['', '-c'] })).toEqual({ kind: 'run', argv: ['ls', '-la'] });
  });
});

describe('decide: what is refused', () => {
  it.each([
    ['a program off the list', 'rm -rf x'],
    ['a prefix of an allowed name', 'l'],
    ['an allowed name with a path', '/bin/ls'],
    ['metacharacters glued to the program', 'ls;touch x'],
    ['a case variant', 'LS'],
  ])('refuses %s, with or without a shell', (_name, line) => {
    expect(decide(line, direct)).toEqual(refused);
    expect(decide(line, shell)).toEqual(refused);
  });

  it.each([
    'ls; touch x',
    'ls && touch x',
    'ls || touch x',
    'ls | touch x',
    'ls & touch x',
    'ls $(touch x)',
    'ls `touch x`',
    'ls ${HOME}',
    'ls\ntouch x',
    'ls\r\ntouch x',
    'ls > x',
    'ls < x',
    'ls (x)',
    'echo "a;b"',
    "echo 'a|b'",
    'ls {a,b}',
    'ls ^ touch',
    'ls ~',
    'ls ~root',
    'ls --dir=~',
    'ls .*',
    'ls sub/.?',
    'ls x\0y',
  ])('refuses %j when a shell is configured', (line) => {
    expect(decide(line, shell)).toEqual(refused);
  });

  it.each(['ls %PATH%', 'echo !x!'])('refuses cmd.exe expansions in %j on Windows', (line) => {
    expect(decide(line, { ...shell, platform: 'win32' })).toEqual(refused);
    expect(decide(line, { ...shell, platform: 'linux' }).kind).toBe('run');
  });

  it.each(['ls /', 'cat /etc/passwd', 'ls ..', 'cat ../x', 'cat a/../../b', 'cat --file=/etc/passwd', 'git -C .. log', 'ls x=..', 'cat "/etc/passwd"', "cat '..\\x'"])(
    'refuses the escaping argument in %j, with or without a shell',
    (line) => {
      expect(decide(line, direct)).toEqual(refused);
      expect(decide(line, shell)).toEqual(refused);
    },
  );

  it('answers a parse error with its text', () => {
    expect(decide('echo "a', direct)).toEqual({ kind: 'refuse', message: 'error parsing command: EOF found when expecting closing quote' });
  });
});

describe('escapingArgument', () => {
  it.each([
    ['/etc', 'linux', true],
    ['--x=/etc', 'linux', true],
    ['..', 'linux', true],
    ['a/..', 'linux', true],
    ['a/../b', 'linux', true],
    ['...', 'linux', false],
    ['..a', 'linux', false],
    ['a..b/c', 'linux', false],
    ['sub/dir', 'linux', false],
    ['-n', 'linux', false],
    ['C:\\Windows', 'win32', true],
    ['C:x', 'win32', true],
    ['\\\\server\\share', 'win32', true],
    ['\\x', 'win32', true],
    ['..\\x', 'win32', true],
    ['C:x', 'linux', false],
    ['sub\\dir', 'win32', false],
  ] as const)('%j on %s: %s', (arg, platform, escapes) => {
    expect(escapingArgument(arg, platform)).toBe(escapes);
  });
});
