import { describe, expect, it } from 'vitest';
import { parseArgs } from './args';
import { GLOBAL_FLAGS, SERVER_FLAGS, SERVE_ONLY_FLAGS, HELP_FLAG } from './flags';

const defs = [...GLOBAL_FLAGS, ...SERVER_FLAGS, ...SERVE_ONLY_FLAGS, HELP_FLAG];
const given = (argv: string[]) => Object.fromEntries(parseArgs(argv, defs).given);

describe('command-line parser', () => {
  it.each([
    [['--port', '9000'], { port: ['9000'] }],
    [['--port=9000'], { port: ['9000'] }],
    [['-p', '9000'], { port: ['9000'] }],
    [['-p9000'], { port: ['9000'] }],
    [['-p=9000'], { port: ['9000'] }],
    [['--disableExec'], { disableExec: ['true'] }],
    [['--disableExec=false'], { disableExec: ['false'] }],
    [['--baseurl', '/fb'], { baseURL: ['/fb'] }],
    [['-b', '/fb'], { baseURL: ['/fb'] }],
    [['--root', '-odd-dir-name'], { root: ['-odd-dir-name'] }],
    [['--address', ''], { address: [''] }],
    [['--port', '1', '--port', '2'], { port: ['2'] }],
    [['--trustedProxy', '10.0.0.1', '--trustedProxy=10.0.0.0/8'], { trustedProxy: ['10.0.0.1', '10.0.0.0/8'] }],
    [['-h'], { help: ['true'] }],
  ])('reads %j as %j', (argv, expected) => {
    expect(given(argv)).toEqual(expected);
  });

  it('keeps positionals, including everything after --', () => {
    const parsed = parseArgs(['one', '--port', '1', 'two', '--', '--port', '-x'], defs);
    expect(parsed.positionals).toEqual(['one', 'two', '--port', '-x']);
    expect(parsed.given.get('port')).toEqual(['1']);
  });

  it.each([
    ['--disable-exec', 'disableExec'],
    ['--img-processors=2', 'imageProcessors'],
    ['--socket-perm=0600', 'socketPerm'],
    ['--token-expiration-time=1h', 'tokenExpirationTime'],
    ['--cache-dir=/c', 'cacheDir'],
  ])('accepts the deprecated spelling %s with a notice naming --%s', (token, canonical) => {
    const parsed = parseArgs([token], defs);
    expect(parsed.given.has(canonical)).toBe(true);
    expect(parsed.notices).toEqual([`flag ${token.split('=')[0]} is deprecated, use --${canonical}`]);
  });

  it('takes --baseurl as an alias without a notice', () => {
    expect(parseArgs(['--baseurl=/x'], defs).notices).toEqual([]);
  });

  it.each([
    [['--foo'], 'unknown flag --foo'],
    [['--foo=1'], 'unknown flag --foo'],
    [['-z'], 'unknown shorthand flag -z'],
    [['-hz'], 'unknown shorthand flag -z in -hz'],
    [['--port'], 'flag --port needs a value'],
    [['-p'], 'flag -p needs a value'],
    [['--Port', '1'], 'unknown flag --Port'],
  ])('refuses %j with "%s"', (argv, message) => {
    expect(() => parseArgs(argv, defs)).toThrow(message);
  });
});
