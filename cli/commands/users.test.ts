import { copyFile, mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { defaultServerConfig } from '../../server/config';
import { noAssets } from '../../server/lib/assets';
import type { Database } from '../../server/state/schema';
import { openFileStore } from '../../server/state/store';
import { runCli } from '../../tests/support/cli-io';

const FIXTURE = join(__dirname, 'fixtures', 'filebrowser-users.json');

async function setup(): Promise<string> {
  const cwd = await mkdtemp(join(tmpdir(), 'filemgr-users-cli-'));
  expect((await runCli(['config', 'init', '--root', 'srv'], { cwd })).code).toBe(0);
  return cwd;
}
const readDb = async (cwd: string) => JSON.parse(await readFile(join(cwd, 'filemgr.json'), 'utf8')) as Database;

async function ok(cwd: string, ...argv: string[]): Promise<string> {
  const r = await runCli(argv, { cwd });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return r.stdout;
}

async function fails(cwd: string, argv: string[], message: RegExp): Promise<void> {
  const before = await readFile(join(cwd, 'filemgr.json'), 'utf8');
  const r = await runCli(argv, { cwd });
  expect(r.code).not.toBe(0);
  expect(r.stderr).toMatch(message);
  expect(await readFile(join(cwd, 'filemgr.json'), 'utf8')).toBe(before);
}

describe('filemgr users import (filebrowser export)', () => {
  it('imports users unchanged and an imported password signs in over HTTP', async () => {
    const cwd = await setup();
    expect(await ok(cwd, 'users', 'import', FIXTURE)).toBe('imported 2 users\n');
    const db = await readDb(cwd);
    const alice = db.users.find((u) => u.username === 'alice')!;
    expect(alice).toMatchObject({ id: 3, scope: '/users/alice', locale: 'de', lockPassword: true, commands: [], sorting: { by: 'modified', asc: true }, aceEditorTheme: 'monokai' });
    expect(alice.rules).toHaveLength(2);
    expect(db.nextUserId).toBe(4);
    const { store } = await openFileStore(join(cwd, 'filemgr.json'));
    const app = await buildApp({ store, config: defaultServerConfig({ root: cwd }), assets: noAssets() });
    try {
      const login = (username: string, password: string) => app.inject({ method: 'POST', url: '/api/login', payload: JSON.stringify({ username, password }) });
      expect((await login('alice', 'Alice-imported-Pw2')).statusCode).toBe(200);
      expect((await login('admin', 'Imported-Admin-Pw1')).statusCode).toBe(200);
      expect((await login('alice', 'wrong')).statusCode).toBe(403);
    } finally {
      await app.close();
    }
  });

  it('refuses an id already present without --overwrite, and changes nothing', async () => {
    const cwd = await setup();
    await ok(cwd, 'users', 'import', FIXTURE);
    await fails(cwd, ['users', 'import', FIXTURE], /already registered; pass --overwrite/);
    await ok(cwd, 'users', 'import', FIXTURE, '--overwrite');
  });

  it('refuses a name held by another id', async () => {
    const cwd = await setup();
    await ok(cwd, 'users', 'add', 'alice', 'Some-long-Passw0rd');
    const fixture = JSON.parse(await readFile(FIXTURE, 'utf8')) as { id: number }[];
    await writeFile(join(cwd, 'alice.json'), JSON.stringify(fixture.slice(1)));
    await fails(cwd, ['users', 'import', 'alice.json', '--overwrite'], /username alice belongs to user id 1/);
  });

  it('with --replace deletes existing users after writing users.backup.json', async () => {
    const cwd = await setup();
    await ok(cwd, 'users', 'add', 'zed', 'Some-long-Passw0rd', '--perm.admin');
    await ok(cwd, 'users', 'import', FIXTURE, '--replace');
    expect((await readDb(cwd)).users.map((u) => u.username)).toEqual(['admin', 'alice']);
    const backup = JSON.parse(await readFile(join(cwd, 'users.backup.json'), 'utf8')) as { username: string }[];
    expect(backup.map((u) => u.username)).toEqual(['zed']);
  });

  it.each([
    ['a file that is not a list', '{"users":[]}', /does not hold a list of users/],
    ['a password that is not a bcrypt hash', '[{"id":5,"username":"x","password":"plain"}]', /not a bcrypt hash/],
    ['a user without a name', '[{"id":5,"username":"","password":"$2a$10$3gJRgtXbXsLTR7pHrz32s.vW5b1N5kXTsOXPjaFIgp.n4G9sUjf66"}]', /has no username/],
    ['an invalid rule', '[{"id":5,"username":"x","password":"$2a$10$3gJRgtXbXsLTR7pHrz32s.vW5b1N5kXTsOXPjaFIgp.n4G9sUjf66","rules":[{"regex":true,"regexp":{"raw":"("}}]}]', /invalid regular expression/],
    ['invalid JSON', '[{', /cannot parse/],
  ])('refuses %s before writing anything', async (_name, text, message) => {
    const cwd = await setup();
    await writeFile(join(cwd, 'bad.json'), text);
    await fails(cwd, ['users', 'import', 'bad.json'], message);
  });

  it('round-trips through users export', async () => {
    const cwd = await setup();
    await ok(cwd, 'users', 'import', FIXTURE);
    await ok(cwd, 'users', 'export', 'out.json');
    expect((await stat(join(cwd, 'out.json'))).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(join(cwd, 'out.json'), 'utf8'))).toEqual(JSON.parse((await readFile(FIXTURE, 'utf8')).replace('"commands": null', '"commands": []')));
    const other = await setup();
    await copyFile(join(cwd, 'out.json'), join(other, 'in.json'));
    await ok(other, 'users', 'import', 'in.json');
    expect((await readDb(other)).users).toEqual((await readDb(cwd)).users);
  });
});

describe('filemgr users add|update --quota (beyond.md §6)', () => {
  it('stores the quota given as a size, changes it, exports and imports it', async () => {
    const cwd = await setup();
    await ok(cwd, 'users', 'add', 'qa', 'Qa-long-Passw0rd', '--quota', '500 MB');
    expect((await readDb(cwd)).users[0]?.quota).toBe(500 * 1024 ** 2);
    await ok(cwd, 'users', 'update', 'qa', '--quota', '10GiB');
    expect((await readDb(cwd)).users[0]?.quota).toBe(10 * 1024 ** 3);
    await ok(cwd, 'users', 'export', 'q.json');
    const other = await setup();
    await copyFile(join(cwd, 'q.json'), join(other, 'q.json'));
    await ok(other, 'users', 'import', 'q.json');
    expect((await readDb(other)).users[0]?.quota).toBe(10 * 1024 ** 3);
    await ok(cwd, 'users', 'update', 'qa', '--quota', '0');
    expect((await readDb(cwd)).users[0]?.quota).toBe(0);
  });

  it('refuses a size it cannot read, naming the sizes it accepts, and changes nothing', async () => {
    const cwd = await setup();
    const message = /--quota must be a size such as "500 MB" or "10GiB"/;
    await fails(cwd, ['users', 'add', 'qb', 'Qb-long-Passw0rd', '--quota', 'lots'], message);
    expect((await readDb(cwd)).users).toEqual([]);
    await ok(cwd, 'users', 'add', 'qc', 'Qc-long-Passw0rd', '--quota', '1 GiB');
    await fails(cwd, ['users', 'update', 'qc', '--quota', '-1 GB'], message);
    expect((await readDb(cwd)).users[0]?.quota).toBe(1024 ** 3);
  });
});

describe('filemgr users add|ls|find|update|rm', () => {
  it('adds a user from the defaults and the flags given, with its home', async () => {
    const cwd = await setup();
    const out = await ok(cwd, 'users', 'add', 'bob', 'Bob-long-Passw0rd', '--perm.admin', '--locale', 'fr', '--scope', 'bob', '--lockPassword');
    expect(out).toMatch(/^ID +Username/);
    const bob = (await readDb(cwd)).users[0]!;
    expect(bob).toMatchObject({ id: 1, username: 'bob', scope: '/bob', locale: 'fr', lockPassword: true, viewMode: 'list' });
    expect(bob.perm.admin).toBe(true);
    expect(bob.password).toMatch(/^\$2a\$10\$/);
    expect((await stat(join(cwd, 'srv', 'bob'))).isDirectory()).toBe(true);
    expect(await ok(cwd, 'users', 'ls')).toContain('bob');
    expect(await ok(cwd, 'users', 'find', '1')).toContain('bob');
    expect(await ok(cwd, 'users', 'find', 'bob')).toContain('/bob');
  });

  it.each([
    [['users', 'add', 'eve', 'short'], /password is too short, minimum length is 12/],
    [['users', 'add', 'eve', 'qwertyuiop123'], /password is too easy/],
    [['users', 'add', 'eve', 'Eve-long-Passw0rd', '--perm.download=false'], /share requires permission to download/],
    [['users', 'find', 'ghost'], /no user ghost/],
    [['users', 'rm', '99'], /no user 99/],
  ])('refuses %j and changes nothing', async (argv, message) => {
    const cwd = await setup();
    await fails(cwd, argv, message);
  });

  it('refuses a duplicate username', async () => {
    const cwd = await setup();
    await ok(cwd, 'users', 'add', 'bob', 'Bob-long-Passw0rd');
    await fails(cwd, ['users', 'add', 'bob', 'Bob-long-Passw0rd'], /username bob is taken/);
  });

  it('updates only the flags given, renames and re-hashes', async () => {
    const cwd = await setup();
    await ok(cwd, 'users', 'add', 'bob', 'Bob-long-Passw0rd', '--locale', 'fr', '--hideDotfiles');
    const before = (await readDb(cwd)).users[0]!;
    await ok(cwd, 'users', 'update', 'bob', '-u', 'robert', '-p', 'New-long-Passw0rd', '--perm.delete=false');
    const after = (await readDb(cwd)).users[0]!;
    expect(after).toMatchObject({ username: 'robert', locale: 'fr', hideDotfiles: true });
    expect(after.perm.delete).toBe(false);
    expect(after.password).not.toBe(before.password);
    expect(after.sessionEpoch).toBeGreaterThan(0);
  });

  it('deletes users but never the last admin', async () => {
    const cwd = await setup();
    await ok(cwd, 'users', 'add', 'root', 'Root-long-Passw0rd', '--perm.admin');
    await ok(cwd, 'users', 'add', 'bob', 'Bob-long-Passw0rd');
    expect(await ok(cwd, 'users', 'rm', 'bob')).toBe('user bob (id 2) deleted\n');
    await fails(cwd, ['users', 'rm', 'root'], /last administrator/);
  });

  it('deletes the user\'s share links with the user', async () => {
    const cwd = await setup();
    await ok(cwd, 'users', 'add', 'root', 'Root-long-Passw0rd', '--perm.admin');
    await ok(cwd, 'users', 'add', 'bob', 'Bob-long-Passw0rd');
    const { store } = await openFileStore(join(cwd, 'filemgr.json'));
    await store.update((db) => {
      db.shares.push({ hash: 'bobslink', path: '/f.txt', userID: 2, expire: 0 }, { hash: 'rootlink', path: '/g.txt', userID: 1, expire: 0 });
    });
    await ok(cwd, 'users', 'rm', 'bob');
    expect((await readDb(cwd)).shares.map((s) => s.hash)).toEqual(['rootlink']);
  });
});

describe('filemgr rules and cmds', () => {
  it('adds, lists and removes global and user rules', async () => {
    const cwd = await setup();
    await ok(cwd, 'users', 'add', 'bob', 'Bob-long-Passw0rd');
    await ok(cwd, 'rules', 'add', '/private');
    await ok(cwd, 'rules', 'add', '-r', '(?i)\\.env$');
    expect(await ok(cwd, 'rules', 'ls')).toBe('Rules (global):\n(0) deny path: /private\n(1) deny regex: (?i)\\.env$\n');
    await ok(cwd, 'rules', 'add', '-a', '/private/ok', '-u', 'bob');
    expect(await ok(cwd, 'rules', 'ls', '-i', '1')).toBe('Rules (user 1):\n(0) allow path: /private/ok\n');
    await ok(cwd, 'rules', 'rm', '0', '1');
    expect((await readDb(cwd)).settings.rules).toEqual([]);
    expect((await readDb(cwd)).users[0]!.rules).toHaveLength(1);
  });

  it.each([
    [['rules', 'add', '-r', '(unclosed'], /invalid regular expression/],
    [['rules', 'rm', '0'], /index out of range/],
    [['rules', 'ls', '-u', 'ghost'], /no user ghost/],
    [['cmds', 'add', 'before_nothing', 'echo'], /unknown event before_nothing/],
    [['cmds', 'rm', 'before_upload', '0'], /index out of range/],
  ])('refuses %j', async (argv, message) => {
    const cwd = await setup();
    await fails(cwd, argv, message);
  });

  it('adds, lists and removes event commands', async () => {
    const cwd = await setup();
    await ok(cwd, 'cmds', 'add', 'before_upload', 'echo', 'hello', 'world');
    await ok(cwd, 'cmds', 'add', 'before_upload', 'true');
    expect(await ok(cwd, 'cmds', 'ls', '-e', 'before_upload')).toBe('before_upload:\n  (0) echo hello world\n  (1) true\n');
    expect(await ok(cwd, 'cmds', 'ls')).toContain('after_delete:\n');
    await ok(cwd, 'cmds', 'rm', 'before_upload', '0');
    expect((await readDb(cwd)).settings.commands.before_upload).toEqual(['true']);
  });
});
