import { describe, expect, it } from 'vitest';
import { parseArgs } from './args';
import type { ConfigFile } from './config-file';
import { GLOBAL_FLAGS, SERVER_FLAGS, SERVE_ONLY_FLAGS, SETTINGS_FLAGS } from './flags';
import { resolveFlags } from './values';

const defs = [...GLOBAL_FLAGS, ...SERVER_FLAGS, ...SERVE_ONLY_FLAGS, ...SETTINGS_FLAGS];

function resolve(argv: string[], env: Record<string, string | undefined> = {}, values?: Record<string, unknown>) {
  const file: ConfigFile | undefined = values ? { path: '/etc/filemgr/.filemgr.json', values } : undefined;
  return resolveFlags(defs, { parsed: parseArgs(argv, defs), env, file });
}

describe('flag precedence: flags > FILEMGR_ > FB_ > config file > default', () => {
  it.each([
    { name: 'the flag beats everything', argv: ['--port', '1'], env: { FILEMGR_PORT: '2', FB_PORT: '3' }, file: { port: 4 }, value: 1, source: 'flag' },
    { name: 'FILEMGR_ beats FB_ and the file', argv: [], env: { FILEMGR_PORT: '2', FB_PORT: '3' }, file: { port: 4 }, value: 2, source: 'env' },
    { name: 'FB_ beats the file', argv: [], env: { FB_PORT: '3' }, file: { port: 4 }, value: 3, source: 'env' },
    { name: 'the file beats the default', argv: [], env: {}, file: { port: 4 }, value: 4, source: 'config' },
    { name: 'a string in the file works too', argv: [], env: {}, file: { port: '5' }, value: 5, source: 'config' },
    { name: 'an empty variable counts as unset', argv: [], env: { FILEMGR_PORT: '' }, file: { port: 4 }, value: 4, source: 'config' },
    { name: 'nothing set gives the default', argv: [], env: {}, file: undefined, value: 8080, source: 'default' },
  ])('$name', ({ argv, env, file, value, source }) => {
    const flags = resolve(argv, env, file);
    expect(flags.number('port')).toBe(value);
    expect(flags.source('port')).toBe(source);
    expect(flags.isSet('port')).toBe(source !== 'default');
  });

  it.each([
    [{ FILEMGR_BASE_URL: '/a' }, '/a'],
    [{ FB_BASE_URL: '/b' }, '/b'],
    [{ FB_BASEURL: '/c' }, '/c'],
    [{ FILEMGR_BASE_URL: '/a', FB_BASEURL: '/c' }, '/a'],
  ])('reads the base URL from %j', (env, expected) => {
    expect(resolve([], env).string('baseURL')).toBe(expected);
  });

  it.each([
    [{ baseurl: '/old' }, '/old'],
    [{ baseURL: '/new' }, '/new'],
  ])('reads the config-file key of %j', (file, expected) => {
    expect(resolve([], {}, file).string('baseURL')).toBe(expected);
  });

  it('does not read settings flags from the environment or the config file', () => {
    const flags = resolve([], { FILEMGR_SIGNUP: 'true', FB_SIGNUP: 'true' }, { signup: true });
    expect(flags.bool('signup')).toBe(false);
    expect(flags.isSet('signup')).toBe(false);
  });

  it.each([
    ['true', true], ['1', true], ['yes', true], ['TRUE', true],
    ['false', false], ['0', false], ['no', false],
  ])('reads the boolean %s from the environment as %s', (raw, expected) => {
    expect(resolve([], { FILEMGR_DISABLE_EXEC: raw }).bool('disableExec')).toBe(expected);
  });

  it.each([
    { argv: ['--socketPerm', '0o600'], env: {}, file: undefined, mode: 0o600 },
    { argv: ['--socketPerm', '0600'], env: {}, file: undefined, mode: 0o600 },
    { argv: ['--socketPerm', '660'], env: {}, file: undefined, mode: 0o660 },
    { argv: [], env: { FILEMGR_SOCKET_PERM: '0640' }, file: undefined, mode: 0o640 },
    { argv: [], env: {}, file: { socketPerm: 438 }, mode: 0o666 },
    { argv: [], env: {}, file: { socketPerm: '0o644' }, mode: 0o644 },
  ])('reads the mode of $argv $env $file as octal', ({ argv, env, file, mode }) => {
    expect(resolve(argv, env, file).number('socketPerm')).toBe(mode);
  });

  it('collects a repeatable flag from the command line, comma lists from the environment and lists from the file', () => {
    expect(resolve(['--trustedProxy', '10.0.0.1', '--trustedProxy', '10.0.0.2,10.0.0.3']).list('trustedProxy')).toEqual(['10.0.0.1', '10.0.0.2', '10.0.0.3']);
    expect(resolve([], { FILEMGR_TRUSTED_PROXY: '10.0.0.1, ::1' }).list('trustedProxy')).toEqual(['10.0.0.1', '::1']);
    expect(resolve([], {}, { trustedProxy: ['127.0.0.1'] }).list('trustedProxy')).toEqual(['127.0.0.1']);
  });

  it.each([
    { argv: ['--imageProcessors', '0'], env: {}, file: undefined, message: '--imageProcessors must be at least 1 (got 0)' },
    { argv: ['--port', 'abc'], env: {}, file: undefined, message: 'invalid value "abc" for --port: expected a whole number' },
    { argv: ['--port', '70000'], env: {}, file: undefined, message: '--port must be at most 65535' },
    { argv: [], env: { FILEMGR_IMAGE_PROCESSORS: '0' }, file: undefined, message: 'FILEMGR_IMAGE_PROCESSORS must be at least 1' },
    { argv: [], env: { FB_DISABLE_EXEC: 'maybe' }, file: undefined, message: 'invalid value "maybe" for FB_DISABLE_EXEC: expected true or false' },
    { argv: [], env: {}, file: { disableExec: 'maybe' }, message: 'for "disableExec" in /etc/filemgr/.filemgr.json' },
    { argv: [], env: {}, file: { port: [1, 2] }, message: 'expected a single value' },
    { argv: ['--socketPerm', '999'], env: {}, file: undefined, message: 'expected an octal mode' },
    { argv: ['--auth.method', 'ldap'], env: {}, file: undefined, message: 'expected one of json, noauth, proxy, hook' },
  ])('refuses $argv $env $file: $message', ({ argv, env, file, message }) => {
    expect(() => resolve(argv, env, file)).toThrow(message);
  });
});
