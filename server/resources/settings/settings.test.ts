import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appsForEachTest } from '../../../tests/support/per-test';
import { type TestApp } from '../../../tests/support/test-app';

const start = appsForEachTest();

const stateOf = (t: TestApp) => JSON.stringify(t.store.data());
const get = (t: TestApp, as?: string) => t.app.inject({ method: 'GET', url: '/api/settings', headers: { 'x-auth': t.token(as) } });
const put = (t: TestApp, payload: unknown, as?: string) =>
  t.app.inject({ method: 'PUT', url: '/api/settings', headers: { 'x-auth': t.token(as) }, payload: typeof payload === 'string' ? payload : JSON.stringify(payload) });

type View = Record<string, unknown> & { commands: Record<string, string[]>; shell: string[]; rules: unknown[] };

describe('GET /api/settings', () => {
  it('answers the settings of api.md 3.3 without the key, logout page or file modes', async () => {
    const t = await start();
    const res = await get(t);
    expect(res.statusCode).toBe(200);
    const body = res.json<View>();
    expect(Object.keys(body).sort()).toEqual(['activityDays', 'authMethod', 'branding', 'commands', 'createUserDir', 'defaults', 'hideLoginButton', 'minimumPasswordLength', 'requireTotp', 'rules', 'shell', 'signup', 'trash', 'tus', 'userHomeBasePath']);
    expect(res.body).not.toContain(t.store.data().settings.key);
    expect(Object.keys(body.commands).sort()).toEqual(['after_copy', 'after_delete', 'after_rename', 'after_save', 'after_upload', 'before_copy', 'before_delete', 'before_rename', 'before_save', 'before_upload']);
  });

  it('fills zero values with their defaults on read', async () => {
    const t = await start({
      settings: (s) => {
        s.minimumPasswordLength = 0;
        s.userHomeBasePath = '';
        s.tus = { chunkSize: 0, retryCount: 0 };
        s.commands = {};
      },
    });
    expect((await get(t)).json()).toMatchObject({ minimumPasswordLength: 12, userHomeBasePath: '/users', tus: { chunkSize: 10485760, retryCount: 5 } });
  });

  it('is for admins only', async () => {
    const t = await start();
    await t.addUser({ username: 'bob', perm: { admin: false } });
    expect((await get(t, 'bob')).statusCode).toBe(403);
    expect((await put(t, {}, 'bob')).statusCode).toBe(403);
  });
});

describe('PUT /api/settings', () => {
  it('replaces the editable settings and round-trips through GET', async () => {
    const t = await start();
    const key = t.store.data().settings.key;
    const body = (await get(t)).json<View>();
    const next = {
      ...body,
      signup: true,
      createUserDir: true,
      minimumPasswordLength: 16,
      userHomeBasePath: '/homes',
      authMethod: 'noauth',
      rules: [{ regex: false, allow: false, path: '/private', regexp: null }, { regex: true, allow: false, path: '', regexp: { raw: '(?i)\\.env$' } }],
      branding: { name: 'Files', disableExternal: true, disableUsedPercentage: false, files: '', theme: 'dark', color: '#123456', issueTracker: 'https://git.example/files/issues' },
      tus: { chunkSize: 1024, retryCount: 2 },
    };
    expect((await put(t, next)).statusCode).toBe(200);
    const after = (await get(t)).json<View>();
    expect(after).toEqual({ ...next, authMethod: 'json' });
    expect(t.store.data().settings.key).toBe(key);
  });

  it('normalises on save: empty locale and view mode, null lists, missing hook keys', async () => {
    const t = await start();
    const res = await put(t, { defaults: { locale: '', viewMode: '', commands: null }, rules: null, shell: null, commands: null });
    expect(res.statusCode).toBe(200);
    const s = t.store.data().settings;
    expect(s.defaults).toMatchObject({ locale: 'en', viewMode: 'mosaic', commands: [] });
    expect(s.rules).toEqual([]);
    expect(s.shell).toEqual([]);
    expect(Object.keys(s.commands)).toHaveLength(10);
    expect(s.minimumPasswordLength).toBe(0);
    expect((await get(t)).json()).toMatchObject({ minimumPasswordLength: 12 });
  });

  it.each([
    ['an invalid rule regex', { rules: [{ regex: true, allow: false, path: '', regexp: { raw: '(unclosed' } }] }, 400],
    ['malformed JSON', '{"signup":', 400],
    ['an empty body', '', 400],
    ['a wrongly typed field', { signup: 'maybe', tus: { chunkSize: -1 } }, 400],
  ])('refuses %s and changes nothing', async (_name, payload, status) => {
    const t = await start();
    const before = stateOf(t);
    expect((await put(t, payload)).statusCode).toBe(status);
    expect(stateOf(t)).toBe(before);
  });

  it('needs execute as well as admin to change shell or event commands', async () => {
    const t = await start();
    await t.addUser({ username: 'boss', perm: { admin: true, execute: false } });
    const body = (await get(t)).json<View>();
    const before = stateOf(t);
    expect((await put(t, { ...body, shell: ['sh', '-c'] }, 'boss')).statusCode).toBe(403);
    expect((await put(t, { ...body, commands: { ...body.commands, after_upload: ['touch /tmp/x'] } }, 'boss')).statusCode).toBe(403);
    expect(stateOf(t)).toBe(before);
    expect((await put(t, { ...body, signup: true, commands: { before_copy: [] } }, 'boss')).statusCode).toBe(200);
    expect((await put(t, { ...body, shell: ['sh', '-c'] })).statusCode).toBe(200);
    expect(t.store.data().settings.shell).toEqual(['sh', '-c']);
  });

  it('refuses a branding directory inside the served root', async () => {
    const t = await start({ tree: { 'brand/custom.css': 'x' } });
    const body = (await get(t)).json<View>();
    const inside = await put(t, { ...body, branding: { files: join(t.root, 'brand') } });
    expect(inside.statusCode).toBe(400);
    expect(inside.body).toMatch(/branding.files/);
    const outside = await mkdtemp(join(tmpdir(), 'filemgr-brand-'));
    expect((await put(t, { ...body, branding: { files: outside } })).statusCode).toBe(200);
  });

  it('keeps the issue tracker when a body (a filebrowser client) leaves it out, and clears it with ""', async () => {
    const t = await start();
    const body = (await get(t)).json<View>();
    expect(body.branding).toMatchObject({ issueTracker: '' });
    expect((await put(t, { ...body, branding: { name: 'Files', issueTracker: '  https://git.example/issues/new  ' } })).statusCode).toBe(200);
    expect((await get(t)).json<View>().branding).toMatchObject({ name: 'Files', issueTracker: 'https://git.example/issues/new' });
    // filebrowser's own PUT: no issueTracker key; its fields follow api.md §3.3 (missing = zero value).
    expect((await put(t, { ...body, branding: { name: 'Renamed', disableExternal: true } })).statusCode).toBe(200);
    expect((await get(t)).json<View>().branding).toEqual({
      name: 'Renamed', disableExternal: true, disableUsedPercentage: false, files: '', theme: '', color: '', issueTracker: 'https://git.example/issues/new',
    });
    expect((await put(t, { signup: true })).statusCode).toBe(200);
    expect(t.store.data().settings.branding.issueTracker).toBe('https://git.example/issues/new');
    expect((await put(t, { ...body, branding: { issueTracker: '' } })).statusCode).toBe(200);
    expect(t.store.data().settings.branding.issueTracker).toBe('');
  });

  it.each(['javascript:alert(1)', 'ftp://git.example/issues', 'git.example/issues', '/issues', 'https://', 'mailto:bugs@example.com'])(
    'refuses the issue tracker %j with a 400 that says why, and changes nothing', async (address) => {
      const t = await start();
      const body = (await get(t)).json<View>();
      const before = stateOf(t);
      const res = await put(t, { ...body, branding: { issueTracker: address } });
      expect(res.statusCode).toBe(400);
      expect(res.body).toContain('branding.issueTracker must be an http:// or https:// address, or empty');
      expect(stateOf(t)).toBe(before);
    },
  );
});
