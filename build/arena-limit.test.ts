import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../cli/command-table';
import { CLI_WORDS, startsServer } from './arena-limit';

describe('startsServer', () => {
  it('knows the first word of every command of the table but serving', () => {
    const words = COMMANDS.map((c) => c.name.split(' ')[0] ?? '').filter((w) => w !== '');
    expect(words.length).toBeGreaterThan(5);
    for (const word of words) expect(CLI_WORDS.has(word), word).toBe(true);
  });

  it.each([
    [[], true],
    [['--root', '/srv/files', '--port', '8080'], true],
    [['-r', 'data', '--noauth'], true],
    [['version'], false],
    [['users', 'ls', '--database', 'x.json'], false],
    [['--database', 'x.json', 'config', 'cat'], false],
    [['--help'], false],
  ])('%j starts the server: %s', (args, expected) => {
    expect(startsServer(args)).toBe(expected);
  });
});
