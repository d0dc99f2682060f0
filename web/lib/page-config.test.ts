import { describe, expect, it } from 'vitest';
import { canLogout, expiryLogoutEnabled, instanceName, pageTitle, readPageConfig } from './page-config';

describe('readPageConfig', () => {
  it('keeps every well-typed key of the server', () => {
    const config = readPageConfig({
      Name: 'Home NAS', BaseURL: '/fb/', StaticURL: '/fb/static', Signup: true, NoAuth: false,
      Theme: 'dark', ReCaptcha: true, ReCaptchaKey: 'site-key', ReCaptchaHost: 'https://www.google.com',
      TusSettings: { chunkSize: 5, retryCount: 2 }, Version: '1.2.3', LoginPage: false,
    });
    expect(config).toMatchObject({
      Name: 'Home NAS', BaseURL: '/fb', StaticURL: '/fb/static', Signup: true, Theme: 'dark',
      ReCaptcha: true, ReCaptchaKey: 'site-key', ReCaptchaHost: 'https://www.google.com',
      TusSettings: { chunkSize: 5, retryCount: 2 }, Version: '1.2.3', LoginPage: false,
    });
  });

  it.each([
    ['undefined', undefined],
    ['a string', 'nope'],
    ['mistyped keys', { Signup: 'yes', Name: 3, TusSettings: { chunkSize: '1' }, LoginPage: null }],
  ])('falls back to defaults for %s', (_name, raw) => {
    const config = readPageConfig(raw);
    expect(config.Signup).toBe(false);
    expect(config.Name).toBe('');
    expect(config.LoginPage).toBe(true);
    expect(config.TusSettings.chunkSize).toBe(10 * 1024 * 1024);
    expect(config.ReCaptchaKey).toBeUndefined();
  });
});

describe('instance name and title', () => {
  it.each([
    ['', 'filemgr'],
    ['  ', 'filemgr'],
    ['Home NAS', 'Home NAS'],
  ])('Name %j shows as %s', (name, expected) => {
    expect(instanceName({ Name: name })).toBe(expected);
  });

  it('joins the non-empty parts with the instance name', () => {
    expect(pageTitle(['Login'], 'filemgr')).toBe('Login - filemgr');
    expect(pageTitle(['a.txt', '', 'Files'], 'NAS')).toBe('a.txt - Files - NAS');
  });
});

describe('expiryLogoutEnabled', () => {
  it.each([
    ['json', '/login', true],
    ['proxy', '/login', true],
    ['proxy', 'https://sso.example/logout', false],
    ['noauth', '/elsewhere', true],
  ])('%s with logout page %s -> %s', (AuthMethod, LogoutPage, expected) => {
    expect(expiryLogoutEnabled({ AuthMethod, LogoutPage })).toBe(expected);
  });
});

describe('canLogout', () => {
  it.each([
    [{ NoAuth: false, LoginPage: true, LogoutPage: '/login' }, true],
    [{ NoAuth: true, LoginPage: false, LogoutPage: '/login' }, false],
    [{ NoAuth: false, LoginPage: false, LogoutPage: '/login' }, false],
    [{ NoAuth: false, LoginPage: false, LogoutPage: 'https://sso.example/out' }, true],
  ])('%j -> %s', (config, expected) => {
    expect(canLogout(config)).toBe(expected);
  });
});
