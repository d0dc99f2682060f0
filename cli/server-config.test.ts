import { describe, expect, it } from 'vitest';
import { defaultServerSettings } from '../server/state/initial';
import type { ServerSettings } from '../server/state/schema';
import { parseArgs } from './args';
import type { ConfigFile } from './config-file';
import { GLOBAL_FLAGS, SERVER_FLAGS, SERVE_ONLY_FLAGS } from './flags';
import { parseDocument } from './json-yaml';
import { resolveServerConfig } from './server-config';
import { resolveFlags } from './values';

const defs = [...GLOBAL_FLAGS, ...SERVER_FLAGS, ...SERVE_ONLY_FLAGS];

interface Case {
  argv?: string[];
  env?: Record<string, string | undefined>;
  file?: Record<string, unknown>;
  stored?: Partial<ServerSettings>;
}

function resolveServer({ argv = [], env = {}, file, stored = {} }: Case) {
  const config: ConfigFile | undefined = file ? { path: '/c/.filemgr.json', values: file } : undefined;
  const flags = resolveFlags(defs, { parsed: parseArgs(argv, defs), env, file: config });
  return resolveServerConfig(flags, { ...defaultServerSettings(), ...stored }, { cwd: '/work', database: '/work/filemgr.json' });
}

describe('server configuration: explicit sources > stored values > defaults', () => {
  it.each([
    { name: 'a stored port beats the default', c: { stored: { port: '9000' } }, port: 9000 },
    { name: 'a flag beats the stored port', c: { argv: ['-p', '7000'], stored: { port: '9000' } }, port: 7000 },
    { name: 'FILEMGR_PORT beats the stored port', c: { env: { FILEMGR_PORT: '7001' }, stored: { port: '9000' } }, port: 7001 },
    { name: 'FB_PORT beats the stored port', c: { env: { FB_PORT: '7002' }, stored: { port: '9000' } }, port: 7002 },
    { name: 'the config file beats the stored port', c: { file: { port: 7003 }, stored: { port: '9000' } }, port: 7003 },
    { name: 'the flag beats env and file', c: { argv: ['--port=7004'], env: { FILEMGR_PORT: '1' }, file: { port: 2 }, stored: { port: '9000' } }, port: 7004 },
  ])('$name', ({ c, port }) => {
    expect(resolveServer(c).config.port).toBe(port);
  });

  it.each([
    { name: 'stored exec stays enabled without a flag', c: { stored: { enableExec: true } }, exec: true },
    { name: '--disableExec turns stored exec off', c: { argv: ['--disableExec'], stored: { enableExec: true } }, exec: false },
    { name: '--disableExec=false enables it', c: { argv: ['--disableExec=false'] }, exec: true },
    { name: 'FB_DISABLE_EXEC=false enables it', c: { env: { FB_DISABLE_EXEC: 'false' } }, exec: true },
    { name: 'the default leaves stored exec off', c: {}, exec: false },
  ])('$name', ({ c, exec }) => {
    expect(resolveServer(c).config.enableExec).toBe(exec);
  });

  it('makes root, database-relative paths and the log file absolute against the working directory', () => {
    const { config } = resolveServer({ argv: ['-r', 'files', '--cacheDir', 'cache', '-l', 'logs/x.log'] });
    expect(config).toMatchObject({ root: '/work/files', cacheDir: '/work/cache', log: '/work/logs/x.log', databasePath: '/work/filemgr.json' });
    expect(resolveServer({ stored: { log: 'stderr' } }).config.log).toBe('stderr');
  });

  it('with PostgreSQL hides what would sit beside a database file: <cwd>/filemgr (the first admin password)', () => {
    const flags = resolveFlags(defs, { parsed: parseArgs([], defs), env: {}, file: undefined });
    const { config } = resolveServerConfig(flags, defaultServerSettings(), { cwd: '/work', database: 'postgres://u:pw@db/filemgr' });
    expect(config.databasePath).toBe('/work/filemgr');
  });

  it.each([
    ['/fb/', '/fb'], ['fb', '/fb'], ['/', ''], ['', ''], ['/a/b//', '/a/b'],
  ])('normalises the base URL %j to %j', (given, expected) => {
    expect(resolveServer({ argv: ['-b', given] }).config.baseURL).toBe(expected);
  });

  it('listens on a stored socket unless an address is given now', () => {
    expect(resolveServer({ stored: { socket: 'fm.sock' } }).target).toEqual({ kind: 'socket', path: '/work/fm.sock', perm: 0o666 });
    expect(resolveServer({ argv: ['-a', '0.0.0.0'], stored: { socket: 'fm.sock' } }).target).toEqual({ kind: 'tcp', address: '0.0.0.0', port: 8080, tls: false });
  });

  it('serves TLS when both certificate and key are set', () => {
    const { target, config } = resolveServer({ argv: ['-t', 'c.pem', '-k', 'k.pem'] });
    expect(target).toEqual({ kind: 'tcp', address: '127.0.0.1', port: 8080, tls: true });
    expect(config.cert).toBe('/work/c.pem');
  });

  it.each([
    [{ argv: ['--socket', 's', '-p', '1'] }, '--socket cannot be used with --address, --port, --cert or --key'],
    [{ argv: ['--socket', 's'], env: { FILEMGR_ADDRESS: '::' } }, '--socket cannot be used'],
    [{ argv: ['-t', 'c.pem'] }, '--cert and --key must be given together'],
    [{ stored: { port: 'http' } }, 'the port "http" is not a port number (0-65535)'],
    [{ argv: ['--trustedProxy', '10.0.0.0/33'] }, 'invalid --trustedProxy "10.0.0.0/33": expected an IP address or a CIDR block'],
    [{ argv: ['--trustedProxy', 'proxy.local'] }, 'invalid --trustedProxy "proxy.local"'],
  ])('refuses %j', (c, message) => {
    expect(() => resolveServer(c)).toThrow(message);
  });

  it('keeps valid trusted proxies in order', () => {
    const proxies = ['10.0.0.1', '192.168.0.0/16', '::1', 'fd00::/8'];
    expect(resolveServer({ argv: proxies.flatMap((p) => ['--trustedProxy', p]) }).config.trustedProxies).toEqual(proxies);
  });

  it.each([
    ['90m', '90m', 0], ['1h30m', '1h30m', 0], ['45s', '45s', 0], ['1.5h', '1.5h', 0], ['two hours', '2h', 1], ['', '2h', 1],
  ])('takes tokenExpirationTime %j as %j with %i warnings', (given, used, warnings) => {
    const r = resolveServer({ stored: { tokenExpirationTime: given } });
    expect(r.config.tokenExpirationTime).toBe(used);
    expect(r.warnings).toHaveLength(warnings);
  });

  it('reads a YAML config file as filebrowser deployments write it: "." stays a path, 0640 is octal', () => {
    const values = parseDocument('yaml', 'root: .\nsocketPerm: 0640\nport: 80\naddress: ""\nbaseurl: /fb\n') as Record<string, unknown>;
    const { config } = resolveServer({ file: values });
    expect(config).toMatchObject({ root: '/work', socketPerm: 0o640, port: 80, address: '', baseURL: '/fb' });
  });
});
