import { copyFile, mkdir, mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../server/state/schema';
import { run } from '../run';
import { memoryIo, runCli } from '../../tests/support/cli-io';

const FIXTURES = join(__dirname, 'fixtures');

async function workdir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'filemgr-config-'));
}

async function readDb(cwd: string): Promise<Database> {
  return JSON.parse(await readFile(join(cwd, 'filemgr.json'), 'utf8')) as Database;
}

async function ok(cwd: string, ...argv: string[]): Promise<string> {
  const r = await runCli(argv, { cwd });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return r.stdout;
}

/** The keys of filebrowser's export, in its order (api.md §7). */
const SETTINGS_KEYS = ['key', 'signup', 'hideLoginButton', 'createUserDir', 'userHomeBasePath', 'defaults', 'authMethod', 'logoutPage', 'branding', 'tus', 'commands', 'shell', 'rules', 'minimumPasswordLength', 'fileMode', 'dirMode', 'hideDotfiles', 'activityDays', 'trash'];
const SERVER_KEYS = ['root', 'baseURL', 'socket', 'tlsKey', 'tlsCert', 'port', 'address', 'log', 'enableThumbnails', 'resizePreview', 'enableExec', 'typeDetectionByHeader', 'imageResolutionCalculation', 'authHook', 'tokenExpirationTime', 'followExternalSymlinks'];
const DEFAULTS_KEYS = ['scope', 'locale', 'viewMode', 'singleClick', 'redirectAfterCopyMove', 'sorting', 'perm', 'commands', 'hideDotfiles', 'dateFormat', 'aceEditorTheme'];

describe('filemgr config init', () => {
  it('creates a database with every flag at its default and no user, and prints it without the key', async () => {
    const cwd = await workdir();
    const out = await ok(cwd, 'config', 'init');
    const db = await readDb(cwd);
    expect(db.users).toEqual([]);
    expect(db.settings).toMatchObject({ signup: false, hideLoginButton: false, authMethod: 'json', minimumPasswordLength: 12, fileMode: 0o640, dirMode: 0o750, logoutPage: '/login', shell: [] });
    expect(db.settings.defaults).toMatchObject({ scope: '.', locale: 'en', viewMode: 'list', sorting: { by: 'name', asc: false }, redirectAfterCopyMove: false, commands: [] });
    expect(db.settings.defaults.perm).toEqual({ admin: false, execute: true, create: true, rename: true, modify: true, delete: true, share: true, download: true });
    expect(db.server).toMatchObject({ address: '127.0.0.1', port: '8080', root: cwd, enableExec: false, enableThumbnails: true });
    expect(db.auther).toEqual({ recaptcha: null });
    expect(Object.keys(db.settings.commands)).toHaveLength(10);
    expect(out).toMatch(/Auth method: +json/);
    expect(out).not.toContain(db.settings.key);
  });

  it('applies the flags given, including octal modes, the shell split on spaces and user defaults', async () => {
    const cwd = await workdir();
    await ok(cwd, 'config', 'init', '--signup', '--fileMode', '0o600', '--dirMode=0700', '--shell', 'sh -c', '--auth.method', 'proxy',
      '--auth.header', 'X-User', '--perm.admin', '--perm.execute=false', '--viewMode', 'mosaic', '--commands', 'git,ls', '-p', '9000',
      '--branding.name', 'Docs', '--tus.chunkSize', '1024', '--disableExec=false', '--baseurl', '/fm/', '--minimumPasswordLength', '8');
    const db = await readDb(cwd);
    expect(db.settings).toMatchObject({ signup: true, fileMode: 0o600, dirMode: 0o700, shell: ['sh', '-c'], authMethod: 'proxy', minimumPasswordLength: 8 });
    expect(db.settings.branding.name).toBe('Docs');
    expect(db.settings.tus).toEqual({ chunkSize: 1024, retryCount: 5 });
    expect(db.settings.defaults).toMatchObject({ viewMode: 'mosaic', commands: ['git', 'ls'] });
    expect(db.settings.defaults.perm).toMatchObject({ admin: true, execute: false });
    expect(db.server).toMatchObject({ port: '9000', enableExec: true, baseURL: '/fm' });
    expect(db.auther).toEqual({ header: 'X-User' });
  });

  it('refuses to overwrite an existing database', async () => {
    const cwd = await workdir();
    await ok(cwd, 'config', 'init');
    const before = await readFile(join(cwd, 'filemgr.json'), 'utf8');
    const r = await runCli(['config', 'init', '--signup'], { cwd });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`filemgr: the database ${join(cwd, 'filemgr.json')} already exists; change it with filemgr config set\n`);
    expect(await readFile(join(cwd, 'filemgr.json'), 'utf8')).toBe(before);
  });

  it.each([
    [['--auth.method', 'proxy'], 1, 'filemgr: auth.method proxy needs --auth.header (the header holding the user name)\n'],
    [['--auth.method', 'hook'], 1, 'filemgr: auth.method hook needs --auth.command (the program that checks sign-ins)\n'],
    [['--viewMode', 'grid'], 2, 'filemgr: invalid value "grid" for --viewMode: expected one of list, mosaic; see filemgr config init --help\n'],
    [['--fileMode', 'rw-r--r--'], 2, 'filemgr: invalid value "rw-r--r--" for --fileMode: expected an octal mode such as 0o640; see filemgr config init --help\n'],
  ])('refuses %j and creates nothing', async (argv, code, line) => {
    const cwd = await workdir();
    const r = await runCli(['config', 'init', ...argv], { cwd });
    expect(r.stderr).toBe(line);
    expect(r.code).toBe(code);
    await expect(stat(join(cwd, 'filemgr.json'))).rejects.toThrow();
  });
});

describe('filemgr config set', () => {
  it('changes only the flags given', async () => {
    const cwd = await workdir();
    await ok(cwd, 'config', 'init', '--branding.name', 'Before', '-p', '9000');
    const before = await readDb(cwd);
    await ok(cwd, 'config', 'set', '--signup', '--locale', 'fr', '--disableThumbnails');
    const after = await readDb(cwd);
    const expected = structuredClone(before);
    expected.settings.signup = true;
    expected.settings.defaults.locale = 'fr';
    expected.server.enableThumbnails = false;
    expect(after).toEqual(expected);
  });

  it('rebuilds the auther only when an auth flag is given, reusing stored values', async () => {
    const cwd = await workdir();
    await ok(cwd, 'config', 'init');
    await ok(cwd, 'config', 'set', '--auth.method', 'hook', '--auth.command', '/usr/local/bin/check');
    expect((await readDb(cwd)).auther).toEqual({ command: '/usr/local/bin/check' });
    await ok(cwd, 'config', 'set', '--branding.name', 'X');
    expect((await readDb(cwd)).auther).toEqual({ command: '/usr/local/bin/check' });
    await ok(cwd, 'config', 'set', '--auth.method', 'json', '--recaptcha.key', 'site', '--recaptcha.secret', 'shh');
    expect((await readDb(cwd)).auther).toEqual({ recaptcha: { host: 'https://www.google.com', key: 'site', secret: 'shh' } });
    await ok(cwd, 'config', 'set', '--recaptcha.host', 'https://recaptcha.net');
    expect((await readDb(cwd)).auther).toEqual({ recaptcha: { host: 'https://recaptcha.net', key: 'site', secret: 'shh' } });
    expect((await readDb(cwd)).settings.authMethod).toBe('json');
  });

  it('counts server values from FILEMGR_ variables as given', async () => {
    const cwd = await workdir();
    await ok(cwd, 'config', 'init');
    const r = await runCli(['config', 'set'], { cwd, env: { FILEMGR_ROOT: '/srv' } });
    expect(r.code).toBe(0);
    expect((await readDb(cwd)).server.root).toBe('/srv');
  });

  it('fails on a missing database with one line', async () => {
    const cwd = await workdir();
    const r = await runCli(['config', 'set', '--signup'], { cwd });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`filemgr: the database ${join(cwd, 'filemgr.json')} does not exist; run filemgr (or filemgr config init) to create it, or pass --database\n`);
  });

  it('works while the server runs on the same database', async () => {
    const cwd = await workdir();
    await mkdir(join(cwd, 'files'));
    const io = memoryIo(cwd);
    const server = run(['-r', 'files', '-p', '0'], { HOME: cwd }, io);
    await io.waitFor('listening on');
    await ok(cwd, 'config', 'set', '--signup');
    expect((await readDb(cwd)).settings.signup).toBe(true);
    expect((await readDb(cwd)).users).toHaveLength(1);
    io.stop();
    expect(await server).toBe(0);
  });
});

describe('--branding.issueTracker', () => {
  it('is stored by init and set, printed by cat, and cleared by an empty value', async () => {
    const cwd = await workdir();
    await ok(cwd, 'config', 'init');
    expect((await readDb(cwd)).settings.branding.issueTracker).toBe('');
    await ok(cwd, 'config', 'set', '--branding.issueTracker', 'https://git.example/files/issues/new');
    expect((await readDb(cwd)).settings.branding.issueTracker).toBe('https://git.example/files/issues/new');
    expect(await ok(cwd, 'config', 'cat')).toMatch(/^ {2}Issue tracker: +https:\/\/git\.example\/files\/issues\/new$/m);
    await ok(cwd, 'config', 'set', '--branding.name', 'Docs');
    expect((await readDb(cwd)).settings.branding.issueTracker).toBe('https://git.example/files/issues/new');
    await ok(cwd, 'config', 'set', '--branding.issueTracker', '');
    expect((await readDb(cwd)).settings.branding.issueTracker).toBe('');
  });

  it.each(['javascript:alert(1)', 'git.example/issues'])('refuses %j with exit 2 and changes nothing', async (address) => {
    const cwd = await workdir();
    await ok(cwd, 'config', 'init', '--branding.issueTracker', 'http://t.example/');
    const before = await readFile(join(cwd, 'filemgr.json'), 'utf8');
    const r = await runCli(['config', 'set', '--branding.issueTracker', address], { cwd });
    expect(r.stderr).toBe(`filemgr: invalid value "${address}" for --branding.issueTracker: expected an http:// or https:// address, or ""; see filemgr config set --help\n`);
    expect(r.code).toBe(2);
    expect(await readFile(join(cwd, 'filemgr.json'), 'utf8')).toBe(before);
  });
});

describe('filemgr config cat', () => {
  it('prints settings, server and auther, never the key, and masks the reCAPTCHA secret', async () => {
    const cwd = await workdir();
    await ok(cwd, 'config', 'init', '--recaptcha.key', 'site', '--recaptcha.secret', 'very-secret', '--root', '/data');
    const out = await ok(cwd, 'config', 'cat');
    const db = await readDb(cwd);
    expect(out).toMatch(/^Settings:\n {2}Sign up: +false$/m);
    expect(out).toMatch(/^ {2}Root: +\/data$/m);
    expect(out).toMatch(/^ {4}Admin: +false$/m);
    expect(out).toContain('"key": "site"');
    expect(out).not.toContain('very-secret');
    expect(out).not.toContain(db.settings.key);
    expect(out).toMatch(/^Auth method configuration \(raw\):$/m);
    expect(out).not.toMatch(/auther/i);
  });
});

describe('filemgr config export', () => {
  it('writes filebrowser\'s export shape as JSON, with the key, mode 0600', async () => {
    const cwd = await workdir();
    await ok(cwd, 'config', 'init', '--auth.method', 'noauth');
    await ok(cwd, 'config', 'export', 'out.json');
    const text = await readFile(join(cwd, 'out.json'), 'utf8');
    expect(text.split('\n')[1]).toBe('    "settings": {');
    const data = JSON.parse(text) as { settings: Record<string, unknown>; server: Record<string, unknown>; auther: unknown };
    expect(Object.keys(data)).toEqual(['settings', 'server', 'auther']);
    expect(Object.keys(data.settings)).toEqual(SETTINGS_KEYS);
    expect(Object.keys(data.server)).toEqual(SERVER_KEYS);
    expect(Object.keys(data.settings.defaults as object)).toEqual(DEFAULTS_KEYS);
    expect(data.settings.key).toBe((await readDb(cwd)).settings.key);
    expect(data.auther).toEqual({});
    expect((await stat(join(cwd, 'out.json'))).mode & 0o777).toBe(0o600);
  });

  it.each(['out.yaml', 'out.yml'])('writes the same data as YAML to %s', async (name) => {
    const cwd = await workdir();
    await ok(cwd, 'config', 'init', '--branding.name', 'yes', '--locale', 'no');
    await ok(cwd, 'config', 'export', 'out.json');
    await ok(cwd, 'config', 'export', name);
    const yaml = await readFile(join(cwd, name), 'utf8');
    expect(parseYaml(yaml, { version: '1.1' })).toEqual(JSON.parse(await readFile(join(cwd, 'out.json'), 'utf8')));
  });
});

describe('filemgr config import', () => {
  it('round-trips an export: the configuration comes back, the database keeps its own key', async () => {
    const a = await workdir();
    await ok(a, 'config', 'init', '--signup', '--shell', 'bash -c', '--auth.method', 'hook', '--auth.command', 'check', '--perm.share=false', '-b', '/x');
    await ok(a, 'config', 'export', 'a.json');
    const b = await workdir();
    await ok(b, 'config', 'init');
    const keyB = (await readDb(b)).settings.key;
    await ok(b, 'config', 'import', join(a, 'a.json'));
    const dbA = await readDb(a);
    const dbB = await readDb(b);
    expect(dbB.settings.key).toBe(keyB);
    expect({ ...dbB.settings, key: '' }).toEqual({ ...dbA.settings, key: '' });
    expect(dbB.server).toEqual(dbA.server);
    expect(dbB.auther).toEqual(dbA.auther);
  });

  it('creates a new database with a fresh key, not the file\'s', async () => {
    const cwd = await workdir();
    await ok(cwd, 'config', 'import', join(FIXTURES, 'filebrowser-config-export.json'));
    const db = await readDb(cwd);
    expect(Buffer.from(db.settings.key, 'base64')).toHaveLength(64);
    expect(db.settings.key).not.toBe(Buffer.from(Array.from({ length: 64 }, (_, i) => i)).toString('base64'));
    expect(db.users).toEqual([]);
  });

  it.each(['filebrowser-config-export.json', 'filebrowser-config-export.yaml'])('imports filebrowser\'s %s, keeping users', async (fixture) => {
    const cwd = await workdir();
    await mkdir(join(cwd, 'files'));
    const first = memoryIo(cwd);
    const server = run(['-r', 'files', '-p', '0'], { HOME: cwd }, first);
    await first.waitFor('listening on');
    first.stop();
    await server;
    await copyFile(join(FIXTURES, fixture), join(cwd, fixture));
    await ok(cwd, 'config', 'import', fixture);
    const db = await readDb(cwd);
    expect(db.users).toHaveLength(1);
    expect(db.settings).toMatchObject({
      signup: true, createUserDir: true, userHomeBasePath: '/home', authMethod: 'proxy', logoutPage: 'https://sso.example.com/logout',
      tus: { chunkSize: 5242880, retryCount: 3 }, shell: ['sh', '-c'], minimumPasswordLength: 10, fileMode: 0o640, dirMode: 0o750,
    });
    expect(db.settings.defaults).toEqual({
      scope: '.', locale: 'de', viewMode: 'mosaic', singleClick: true, redirectAfterCopyMove: true, sorting: { by: 'modified', asc: true },
      perm: { admin: false, execute: false, create: true, rename: true, modify: true, delete: false, share: true, download: true },
      commands: ['git', 'ls'], hideDotfiles: true, dateFormat: false, aceEditorTheme: 'monokai',
    });
    expect(db.settings.branding).toEqual({ name: 'Team Files', disableExternal: true, disableUsedPercentage: false, files: '/srv/branding', theme: 'dark', color: '#336699', issueTracker: '' });
    expect(db.settings.commands.after_upload).toEqual(['echo uploaded']);
    expect(Object.keys(db.settings.commands)).toHaveLength(10);
    expect(db.settings.rules).toEqual([
      { regex: true, allow: false, path: '', regexp: { raw: '\\.secret$' } },
      { regex: false, allow: false, path: '/private', regexp: null },
    ]);
    // imageResolutionCalculation and followExternalSymlinks are missing from the file: defaults.
    expect(db.server).toEqual({
      root: '/srv', baseURL: '/files', socket: '', tlsKey: '', tlsCert: '', port: '80', address: '0.0.0.0', log: 'stdout',
      enableThumbnails: true, resizePreview: false, enableExec: false, typeDetectionByHeader: true, imageResolutionCalculation: true,
      authHook: '', tokenExpirationTime: '6h', followExternalSymlinks: false,
    });
    expect(db.auther).toEqual({ header: 'X-Remote-User' });
  });

  it.each([
    ['no settings', { server: {} }, 'filemgr: the configuration has no "settings" object\n'],
    ['no server', { settings: {} }, 'filemgr: the configuration has no "server" object\n'],
    ['an unknown auth method', { settings: { authMethod: 'ldap' }, server: {} }, 'filemgr: invalid auth method "ldap" in settings.authMethod\n'],
    ['proxy without a header', { settings: { authMethod: 'proxy' }, server: {}, auther: {} }, 'filemgr: auther.header is required by the proxy auth method\n'],
    ['a field of the wrong type', { settings: { signup: 'yes' }, server: {} }, 'filemgr: the configuration.settings.signup must be true or false\n'],
    ['an invalid regular expression', { settings: { rules: [{ regex: true, regexp: { raw: '(' } }] }, server: {} }, /^filemgr: settings\.rules\[0\] has an invalid regular expression: [^\n]+\n$/],
  ])('refuses a file with %s and changes nothing', async (_name, content, line) => {
    const cwd = await workdir();
    await ok(cwd, 'config', 'init');
    const before = await readFile(join(cwd, 'filemgr.json'), 'utf8');
    await writeFile(join(cwd, 'bad.json'), JSON.stringify(content));
    const r = await runCli(['config', 'import', 'bad.json'], { cwd });
    expect(r.code).toBe(1);
    if (typeof line === 'string') expect(r.stderr).toBe(line);
    else expect(r.stderr).toMatch(line);
    expect(await readFile(join(cwd, 'filemgr.json'), 'utf8')).toBe(before);
  });

  it('refuses a file that does not parse, with one line', async () => {
    const cwd = await workdir();
    await writeFile(join(cwd, 'bad.yaml'), 'settings: [unclosed');
    const r = await runCli(['config', 'import', 'bad.yaml'], { cwd });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^filemgr: cannot parse ${join(cwd, 'bad.yaml')}: [^\\n]+\\n$`));
    await expect(stat(join(cwd, 'filemgr.json'))).rejects.toThrow();
  });
});

describe('--activityDays', () => {
  it('sets the days the activity log keeps, 1 to 3650', async () => {
    const cwd = await workdir();
    await ok(cwd, 'config', 'init');
    expect((await readDb(cwd)).settings.activityDays).toBe(90);
    await ok(cwd, 'config', 'set', '--activityDays', '14');
    expect((await readDb(cwd)).settings.activityDays).toBe(14);
    expect(await ok(cwd, 'config', 'cat')).toMatch(/^ {2}Days of activity kept: +14$/m);
    expect((await runCli(['config', 'set', '--activityDays', '0'], { cwd })).code).toBe(2);
    expect((await runCli(['config', 'set', '--activityDays', '3651'], { cwd })).code).toBe(2);
    expect((await readDb(cwd)).settings.activityDays).toBe(14);
  });
});
