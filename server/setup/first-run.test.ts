import { describe, expect, it } from 'vitest';
import { defaultServerConfig } from '../config';
import { defaultServerSettings, newSettings } from '../state/initial';
import { firstRunDatabase, isBcryptHash, randomPassword } from './first-run';
import { startupWarnings } from './warnings';

describe('first-run setup', () => {
  it('creates the admin as user 1 with every permission of the defaults, and the next id 2', () => {
    const db = firstRunDatabase({ authMethod: 'json', username: 'admin', passwordHash: '$2a$10$x', server: { ...defaultServerSettings(), root: '/srv' } });
    expect(db.users).toHaveLength(1);
    expect(db.users[0]).toMatchObject({ id: 1, username: 'admin', password: '$2a$10$x', scope: '.', lockPassword: false, sessionEpoch: 0, rules: [] });
    expect(Object.values(db.users[0]!.perm).every((p) => p)).toBe(true);
    expect(db.nextUserId).toBe(2);
    expect(db.server.root).toBe('/srv');
    expect(db.auther).toEqual({ recaptcha: null });
    expect(db.settings.hideLoginButton).toBe(true);
  });

  it('stores noauth with an empty auther', () => {
    const db = firstRunDatabase({ authMethod: 'noauth', username: 'a', passwordHash: 'h', server: defaultServerSettings() });
    expect(db.settings.authMethod).toBe('noauth');
    expect(db.auther).toEqual({});
  });

  it('makes 16-character URL-safe random passwords that differ', () => {
    const a = randomPassword();
    expect(a).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(randomPassword()).not.toBe(a);
  });

  it.each([
    ['$2a$10$abcdefghijklmnopqrstuu5Sa.aDKmdWd9ePUJ7e.uSGVv25TCiYG', true],
    ['$2y$12$abcdefghijklmnopqrstuu5Sa.aDKmdWd9ePUJ7e.uSGVv25TCiYG', true],
    ['admin', false],
    ['$2a$10$short', false],
  ])('recognises %s as a bcrypt hash: %s', (value, expected) => {
    expect(isBcryptHash(value)).toBe(expected);
  });
});

describe('startup warnings', () => {
  it('says nothing for the defaults', () => {
    expect(startupWarnings(defaultServerConfig(), newSettings('json'))).toEqual([]);
  });

  it.each([
    { name: 'exec enabled', config: defaultServerConfig({ enableExec: true }), settings: {}, message: /command execution is enabled/ },
    { name: 'external symlinks followed', config: defaultServerConfig({ followExternalSymlinks: true }), settings: {}, message: /symlinks that lead outside/ },
    { name: 'signup with the root as scope', config: defaultServerConfig(), settings: { signup: true }, message: /signup is enabled and new users get the whole root/ },
  ])('warns about $name', ({ config, settings, message }) => {
    const warnings = startupWarnings(config, { ...newSettings('json'), ...settings });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(message);
  });

  it('does not warn about signup when users get their own directory', () => {
    expect(startupWarnings(defaultServerConfig(), { ...newSettings('json'), signup: true, createUserDir: true })).toEqual([]);
  });
});
