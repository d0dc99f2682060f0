import { describe, expect, it } from 'vitest';
import { emptyDatabase } from '../state/initial';
import { exportConfig, importConfig } from './config-transfer';
import { FieldReader } from './field-reader';

describe('config transfer', () => {
  it('imports what it exports, taking the given key instead of the file\'s', () => {
    const db = emptyDatabase('json');
    db.settings.rules = [{ regex: true, allow: true, path: '', regexp: { raw: '^/a' } }];
    db.settings.branding.issueTracker = 'https://git.example/files/issues';
    db.auther = { recaptcha: { host: 'h', key: 'k', secret: 's' } };
    const back = importConfig(JSON.parse(JSON.stringify(exportConfig(db))), 'other-key');
    expect(back.settings).toEqual({ ...db.settings, key: 'other-key' });
    expect(back.server).toEqual(db.server);
    expect(back.auther).toEqual(db.auther);
  });

  it('carries the trash settings: on for 30 days when absent, days outside 1..3650 refused', () => {
    const db = emptyDatabase('json');
    db.settings.trash = { enabled: false, days: 9 };
    expect(importConfig(JSON.parse(JSON.stringify(exportConfig(db))), 'k').settings.trash).toEqual({ enabled: false, days: 9 });
    expect(importConfig({ settings: {}, server: {} }, 'k').settings.trash).toEqual({ enabled: true, days: 30 });
    expect(() => importConfig({ settings: { trash: { days: 0 } }, server: {} }, 'k')).toThrow(/trash.days/);
  });

  it('exports only the fields of the auth method in use', () => {
    const db = emptyDatabase('json');
    db.settings.authMethod = 'proxy';
    db.auther = { header: 'X-User', recaptcha: null, command: 'stale' };
    expect(exportConfig(db).auther).toEqual({ header: 'X-User' });
  });

  it('fills zero values with the defaults filebrowser applies on read', () => {
    const c = importConfig({ settings: { minimumPasswordLength: 0, fileMode: 0, tus: { chunkSize: 0, retryCount: 0 }, userHomeBasePath: '', logoutPage: '', defaults: { locale: '', viewMode: '' } }, server: {} }, 'k');
    expect(c.settings).toMatchObject({ minimumPasswordLength: 12, fileMode: 0o640, dirMode: 0o750, tus: { chunkSize: 10485760, retryCount: 5 }, userHomeBasePath: '/users', logoutPage: '/login', authMethod: 'json' });
    expect(c.settings.defaults).toMatchObject({ locale: 'en', viewMode: 'mosaic' });
    expect(c.auther).toEqual({ recaptcha: null });
  });

  it('accepts rules in Go regular-expression syntax, as filebrowser exports them', () => {
    const c = importConfig({ settings: { rules: [{ regex: true, allow: false, path: '', regexp: { raw: '(?i)\\.SECRET$' } }] }, server: {} }, 'k');
    expect(c.settings.rules[0]?.regexp).toEqual({ raw: '(?i)\\.SECRET$' });
  });

  it('accepts a port written as a number', () => {
    expect(importConfig({ settings: {}, server: { port: 80 } }, 'k').server.port).toBe('80');
  });

  it('exports branding.issueTracker and reads a filebrowser file without it as empty', () => {
    const db = emptyDatabase('json');
    db.settings.branding.issueTracker = 'https://git.example/issues';
    expect(exportConfig(db).settings.branding).toMatchObject({ issueTracker: 'https://git.example/issues' });
    expect(importConfig({ settings: { branding: { name: 'Docs' } }, server: {} }, 'k').settings.branding).toMatchObject({ name: 'Docs', issueTracker: '' });
    expect(importConfig({ settings: {}, server: {} }, 'k').settings.branding.issueTracker).toBe('');
  });

  it.each(['javascript:alert(1)', 'tracker.example'])('refuses an issue tracker %j that is not an http(s) address', (address) => {
    expect(() => importConfig({ settings: { branding: { issueTracker: address } }, server: {} }, 'k'))
      .toThrow('settings.branding.issueTracker must be an http:// or https:// address, or empty');
  });
});

describe('FieldReader', () => {
  const r = FieldReader.of({ CreateUserDir: true, n: null, list: ['a'], obj: { x: 1 }, num: '7' }, 'cfg');

  it('matches keys exactly, else case-insensitively', () => {
    expect(r.bool('createUserDir', false)).toBe(true);
    expect(r.bool('createuserdir', false)).toBe(true);
  });

  it('takes the fallback for missing and null fields', () => {
    expect(r.string('missing', 'd')).toBe('d');
    expect(r.string('n', 'd')).toBe('d');
    expect(r.child('n')).toBeUndefined();
    expect(r.has('n')).toBe(false);
  });

  it.each([
    [() => r.bool('list', false), 'cfg.list must be true or false'],
    [() => r.string('obj', ''), 'cfg.obj must be a string'],
    [() => r.uint('list', 0), 'cfg.list must be a whole number'],
    [() => r.strings('obj', []), 'cfg.obj must be a list of strings'],
    [() => r.child('list'), 'cfg.list must be an object'],
    [() => FieldReader.of([], 'top'), 'top must be an object'],
  ])('names the field of the wrong type (%#)', (read, message) => {
    expect(read).toThrow(message);
  });

  it('reads whole numbers written as strings', () => {
    expect(r.uint('num', 0)).toBe(7);
  });
});
