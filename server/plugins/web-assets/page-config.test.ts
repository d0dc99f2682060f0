import { describe, expect, it } from 'vitest';
import { defaultServerConfig } from '../../config';
import { emptyDatabase } from '../../state/initial';
import type { Auther } from '../../state/schema';
import { buildPageConfig, pageConfigJson } from './page-config';

function configFor(authMethod: string, auther: Auther = {}) {
  const db = emptyDatabase();
  db.settings.authMethod = authMethod;
  return buildPageConfig({ settings: db.settings, auther, config: defaultServerConfig(), hasCustomCss: false });
}

describe('buildPageConfig', () => {
  it.each([
    ['json', true, false],
    ['hook', true, false],
    ['proxy', false, false],
    ['noauth', false, true],
  ])('for auth method %s sets LoginPage %s and NoAuth %s', (method, loginPage, noAuth) => {
    expect(configFor(method)).toMatchObject({ AuthMethod: method, LoginPage: loginPage, NoAuth: noAuth });
  });

  it.each([
    ['json with key and secret', 'json', { host: 'https://h', key: 'k', secret: 's' }, { ReCaptcha: true, ReCaptchaHost: 'https://h', ReCaptchaKey: 'k' }],
    ['json without a secret', 'json', { host: 'https://h', key: 'k', secret: '' }, { ReCaptcha: false, ReCaptchaHost: 'https://h', ReCaptchaKey: 'k' }],
    ['json without a key', 'json', { host: 'https://h', key: '', secret: 's' }, { ReCaptcha: false, ReCaptchaHost: 'https://h', ReCaptchaKey: '' }],
    ['json with recaptcha null', 'json', null, { ReCaptcha: false }],
    ['hook with a stale recaptcha', 'hook', { host: 'https://h', key: 'k', secret: 's' }, { ReCaptcha: false }],
  ] as const)('reCAPTCHA fields for %s', (...[, method, recaptcha, expected]) => {
    const config = configFor(method, { recaptcha });
    expect({ ReCaptcha: config.ReCaptcha, ReCaptchaHost: config.ReCaptchaHost, ReCaptchaKey: config.ReCaptchaKey }).toEqual({
      ReCaptchaHost: undefined,
      ReCaptchaKey: undefined,
      ...expected,
    });
  });

  it('takes branding, server switches, base URL and version from their sources', () => {
    const db = emptyDatabase();
    db.settings.branding = { name: 'N', disableExternal: true, disableUsedPercentage: true, files: '/b', theme: 'dark', color: '#000', issueTracker: 'https://git.example/t/issues' };
    db.settings.signup = true;
    db.settings.hideLoginButton = false;
    db.settings.logoutPage = 'https://sso.example/logout';
    db.settings.tus = { chunkSize: 1024, retryCount: 0 };
    const config = defaultServerConfig({ baseURL: '/x', enableExec: true, enableThumbnails: false, resizePreview: false, version: '9.9.9' });
    expect(buildPageConfig({ settings: db.settings, auther: {}, config, hasCustomCss: true })).toMatchObject({
      Name: 'N', DisableExternal: true, DisableUsedPercentage: true, Theme: 'dark', Color: '#000', CSS: true, IssueTracker: 'https://git.example/t/issues',
      Signup: true, HideLoginButton: false, LogoutPage: 'https://sso.example/logout', BaseURL: '/x', StaticURL: '/x/static',
      EnableExec: true, EnableThumbs: false, ResizePreview: false, Version: '9.9.9', TusSettings: { chunkSize: 1024, retryCount: 0 },
    });
  });

  it.each(['javascript:alert(1)', 'ftp://files.example/', 'tracker.example/issues'])('leaves out an issue tracker %j that is not http(s), as a hand-edited state file could hold', (address) => {
    const db = emptyDatabase();
    db.settings.branding.issueTracker = address;
    expect(buildPageConfig({ settings: db.settings, auther: {}, config: defaultServerConfig(), hasCustomCss: false }).IssueTracker).toBe('');
  });

  it.each([
    { disableWebDAV: false, webdav: true },
    { disableWebDAV: true, webdav: false },
  ])('tells the web app whether WebDAV is served (disableWebDAV $disableWebDAV -> webdav $webdav)', ({ disableWebDAV, webdav }) => {
    const db = emptyDatabase();
    expect(buildPageConfig({ settings: db.settings, auther: {}, config: defaultServerConfig({ disableWebDAV }), hasCustomCss: false }).WebDAV).toBe(webdav);
  });

  it('reads unset tus settings and logout page as their defaults', () => {
    const db = emptyDatabase();
    db.settings.tus = { chunkSize: 0, retryCount: 0 };
    db.settings.logoutPage = '';
    const config = buildPageConfig({ settings: db.settings, auther: {}, config: defaultServerConfig(), hasCustomCss: false });
    expect(config.TusSettings).toEqual({ chunkSize: 10485760, retryCount: 5 });
    expect(config.LogoutPage).toBe('/login');
  });
});

describe('pageConfigJson', () => {
  it.each([
    ['<', '\\u003c'],
    ['>', '\\u003e'],
    ['&', '\\u0026'],
    ["'", '\\u0027'],
    ['\u2028', '\\u2028'],
    ['\u2029', '\\u2029'],
  ])('escapes %j as %s and still parses back to the same value', (char, escaped) => {
    const config = { ...configFor('json'), Name: `a${char}b` };
    const json = pageConfigJson(config);
    expect(json).toContain(`"Name":"a${escaped}b"`);
    expect(json).not.toContain(char);
    expect(JSON.parse(json)).toEqual(JSON.parse(JSON.stringify(config)));
  });

  it('writes the keys in alphabetical order, nested objects included', () => {
    const json = pageConfigJson({ ...configFor('json'), TusSettings: { retryCount: 1, chunkSize: 2 } });
    expect(json.startsWith('{"AuthMethod":"json","BaseURL":"","CSS":false,"Color":""')).toBe(true);
    expect(json).toContain('"TusSettings":{"chunkSize":2,"retryCount":1},"Version"');
  });
});
