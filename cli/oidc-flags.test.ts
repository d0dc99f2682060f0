import { describe, expect, it } from 'vitest';
import { defaultServerSettings } from '../server/state/initial';
import { parseArgs } from './args';
import type { ConfigFile } from './config-file';
import { GLOBAL_FLAGS, SERVER_FLAGS, SERVE_ONLY_FLAGS } from './flags';
import { UsageError } from './io';
import { resolveServerConfig } from './server-config';
import { resolveFlags } from './values';

const defs = [...GLOBAL_FLAGS, ...SERVER_FLAGS, ...SERVE_ONLY_FLAGS];
const SECRET = 's3cret-value-of-the-client';

function resolve(argv: string[], env: Record<string, string> = {}, file?: Record<string, unknown>) {
  const config: ConfigFile | undefined = file ? { path: '/c/.filemgr.json', values: file } : undefined;
  const flags = resolveFlags(defs, { parsed: parseArgs(argv, defs), env, file: config });
  return resolveServerConfig(flags, defaultServerSettings(), { cwd: '/work', database: '/work/filemgr.json' }).config;
}

const base = ['--oidc.clientId', 'filemgr', '--oidc.clientSecret', SECRET];

describe('--oidc.* (beyond.md §4.3)', () => {
  it('no issuer: no OpenID sign-in', () => {
    expect(resolve([]).oidc).toBeUndefined();
  });

  it('takes the defaults of the flag table and the values of flags, environment and config file', () => {
    expect(resolve(['--oidc.issuer', 'https://auth.example.com', ...base]).oidc).toEqual({
      issuer: 'https://auth.example.com', clientId: 'filemgr', clientSecret: SECRET, scopes: 'openid profile email',
      usernameClaim: 'preferred_username', groupsClaim: 'groups', adminGroup: '', createUsers: true, passwordLogin: true, name: 'OpenID',
    });
    const env = { FILEMGR_OIDC_ISSUER: 'https://auth.example.com', FILEMGR_OIDC_CLIENT_ID: 'c', FILEMGR_OIDC_CLIENT_SECRET: SECRET, FILEMGR_OIDC_PASSWORD_LOGIN: 'false' };
    expect(resolve([], env).oidc).toMatchObject({ clientId: 'c', clientSecret: SECRET, passwordLogin: false });
    const file = { 'oidc.issuer': 'https://auth.example.com', 'oidc.clientId': 'f', 'oidc.clientSecret': SECRET, 'oidc.adminGroup': 'admins', 'oidc.createUsers': false };
    expect(resolve([], {}, file).oidc).toMatchObject({ clientId: 'f', adminGroup: 'admins', createUsers: false });
  });

  it.each([
    ['http://127.0.0.1:9000', true], ['http://localhost:9000/realms/x', true], ['http://[::1]:9000', true],
    ['https://auth.example.com', true], ['http://auth.example.com', false], ['http://10.0.0.5:9000', false], ['ftp://auth.example.com', false],
    ['not an address', false], ['https://auth.example.com/?x=1', false],
  ])('issuer %s is accepted: %s', (issuer, ok) => {
    const run = () => resolve(['--oidc.issuer', issuer, ...base]);
    if (ok) expect(run().oidc?.issuer).toBe(issuer);
    else expect(run).toThrow(UsageError);
  });

  it('refuses an http: issuer off this machine with a message that says why', () => {
    expect(() => resolve(['--oidc.issuer', 'http://auth.example.com', ...base])).toThrow(/must be https: \(http: is accepted only for a provider on this machine/);
  });

  it.each([
    [['--oidc.clientSecret', SECRET], /--oidc.clientId is required/],
    [['--oidc.clientId', 'filemgr'], /--oidc.clientSecret is required/],
    [[...base, '--oidc.scopes', 'profile email'], /must include openid/],
  ])('refuses an incomplete configuration %j', (argv, message) => {
    expect(() => resolve(['--oidc.issuer', 'https://auth.example.com', ...argv])).toThrow(message);
  });

  it('never puts the secret in an error message', () => {
    expect(() => resolve(['--oidc.issuer', 'http://auth.example.com', ...base])).toThrow(expect.objectContaining({ message: expect.not.stringContaining(SECRET) as unknown }));
  });
});
