import { chmod, mkdtemp, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Settings } from '../../state/schema';
import { appsForEachTest } from '../../../tests/support/per-test';
import { type TestApp } from '../../../tests/support/test-app';

const start = appsForEachTest();

const ALL = { admin: true, execute: true, create: true, rename: true, modify: true, delete: true, share: true, download: true };

describe('proxy auth', () => {
  const proxy = (extra: (s: Settings) => void = () => undefined) => async (t: TestApp) => {
    await t.store.update((db) => {
      db.settings.authMethod = 'proxy';
      db.auther = { header: 'X-Remote-User' };
      db.settings.defaults.perm = { ...ALL };
      db.settings.defaults.commands = ['git', 'ls', 'cat', 'id'];
      extra(db.settings);
    });
    return t;
  };
  const loginAs = (t: TestApp, name?: string) =>
    t.app.inject({ method: 'POST', url: '/api/login', payload: '{}', headers: name === undefined ? {} : { 'x-remote-user': name } });

  it('provisions an unknown user without admin, execute or commands, with a locked password', async () => {
    const t = await proxy()(await start());
    const res = await loginAs(t, 'newproxyuser');
    expect(res.statusCode).toBe(200);
    const u = t.store.data().users.find((x) => x.username === 'newproxyuser')!;
    expect(u.perm).toMatchObject({ admin: false, execute: false, create: true });
    expect(u.commands).toEqual([]);
    expect(u.lockPassword).toBe(true);
    expect((await loginAs(t, 'newproxyuser')).statusCode).toBe(200);
    expect(t.store.data().users.filter((x) => x.username === 'newproxyuser')).toHaveLength(1);
  });

  it('gives provisioned users distinct derived homes with createUserDir', async () => {
    const t = await proxy((s) => {
      s.createUserDir = true;
      s.userHomeBasePath = '/users';
      s.defaults.scope = '.';
    })(await start());
    await loginAs(t, 'alice');
    await loginAs(t, 'bob');
    const scope = (n: string) => t.store.data().users.find((x) => x.username === n)!.scope;
    expect(scope('alice')).toBe('/users/alice');
    expect(scope('bob')).toBe('/users/bob');
    expect((await stat(join(t.root, 'users', 'alice'))).isDirectory()).toBe(true);
  });

  it('refuses a request without the header', async () => {
    const t = await proxy()(await start());
    expect((await loginAs(t)).statusCode).toBe(403);
  });

  describe('expired-token exception (api.md 2.5)', () => {
    async function setup(logoutPage: string) {
      const t = await proxy((s) => {
        s.logoutPage = logoutPage;
      })(await start());
      await t.store.update((db) => {
        db.auther = { header: 'X-Fb-User' };
      });
      await t.addUser({ username: 'u', perm: {} });
      await t.addUser({ username: 'someone-else', perm: {} });
      const u = t.store.data().users.find((x) => x.username === 'u')!;
      const expired = t.tokens.sign(u, t.store.data().settings.key, { lifetimeMs: 2 * 3_600_000, nowMs: Date.now() - 3 * 3_600_000 });
      return { t, expired, valid: t.token('u') };
    }
    const call = (t: TestApp, token: string, user?: string) =>
      t.app.inject({ method: 'GET', url: '/api/users/2', headers: { 'x-auth': token, ...(user ? { 'x-fb-user': user } : {}) } });

    it('accepts an expired token only when the header names the same user', async () => {
      const { t, expired, valid } = await setup('/logged-out');
      expect((await call(t, expired)).statusCode).toBe(401);
      expect((await call(t, expired, 'someone-else')).statusCode).toBe(401);
      expect((await call(t, expired, 'u')).statusCode).toBe(200);
      expect((await call(t, valid)).statusCode).toBe(200);
    });

    it('never waives expiry with the default logout page', async () => {
      const { t, expired } = await setup('/login');
      expect((await call(t, expired, 'u')).statusCode).toBe(401);
    });
  });
});

describe('hook auth', () => {
  async function hook(script: string, extra: (s: Settings) => void = () => undefined) {
    const dir = await mkdtemp(join(tmpdir(), 'filemgr-hook-'));
    const path = join(dir, 'hook.sh');
    await writeFile(path, `#!/bin/sh\n${script}\n`);
    await chmod(path, 0o755);
    const t = await start({ env: { PATH: process.env.PATH } });
    await t.store.update((db) => {
      db.settings.authMethod = 'hook';
      db.auther = { command: `${path} --flag` };
      extra(db.settings);
    });
    return { t, dir };
  }
  const loginWith = (t: TestApp, username: string, password: string) =>
    t.app.inject({ method: 'POST', url: '/api/login', payload: JSON.stringify({ username, password }) });

  it.each(['"; touch MARKER; #', '$(touch MARKER)', '`touch MARKER`'])('never runs credentials as code (%s)', async (payload) => {
    const { t, dir } = await hook('echo hook.action=block');
    const marker = join(dir, 'pwned');
    const res = await loginWith(t, payload.replace('MARKER', marker), payload.replace('MARKER', marker));
    expect(res.statusCode).toBe(403);
    await expect(stat(marker)).rejects.toThrow();
  });

  it('passes the credentials only through USERNAME and PASSWORD', async () => {
    const { t } = await hook('[ "$USERNAME" = alice ] && [ "$PASSWORD" = "S3cret-hook-pass" ] && [ "$1" = --flag ] && [ -z "$2" ] && echo hook.action=auth || echo hook.action=block');
    expect((await loginWith(t, 'alice', 'S3cret-hook-pass')).statusCode).toBe(200);
    expect((await loginWith(t, 'alice', 'wrong-password-x')).statusCode).toBe(403);
  });

  it('derives the home of a new hook user with createUserDir and locks its password', async () => {
    const { t } = await hook('echo hook.action=auth', (s) => {
      s.createUserDir = true;
      s.userHomeBasePath = '/users';
      s.defaults.scope = '.';
      s.defaults.perm = { ...ALL };
    });
    expect((await loginWith(t, 'alice', 'S3cret-hook-pass')).statusCode).toBe(200);
    const alice = t.store.data().users.find((u) => u.username === 'alice')!;
    expect(alice.scope).toBe('/users/alice');
    expect(alice.lockPassword).toBe(true);
    expect(alice.perm.admin).toBe(false);
    expect(alice.perm.execute).toBe(false);
  });

  it('keeps a scope the hook returns, even with createUserDir', async () => {
    const { t } = await hook('printf "hook.action=auth\\r\\nuser.scope = /shared/team\\nuser.perm.admin=true\\nuser.commands=ls  git\\nignored.key=x\\n"', (s) => {
      s.createUserDir = true;
    });
    expect((await loginWith(t, 'alice', 'S3cret-hook-pass')).statusCode).toBe(200);
    expect((await loginWith(t, 'bob', 'S3cret-hook-pass')).statusCode).toBe(200);
    const alice = t.store.data().users.find((u) => u.username === 'alice')!;
    expect(alice.scope).toBe('/shared/team');
    expect(alice.perm).toEqual(ALL);
    expect(alice.commands).toEqual(['ls', 'git']);
    expect(t.store.data().users.find((u) => u.username === 'bob')!.scope).toBe('/shared/team');
  });

  it('rewrites an existing user from the hook values and its new password', async () => {
    const { t } = await hook('echo hook.action=auth; echo user.locale=fr');
    await t.addUser({ username: 'carol', password: 'Old-password-123', perm: {} });
    expect((await loginWith(t, 'carol', 'New-password-456')).statusCode).toBe(200);
    const carol = t.store.data().users.find((u) => u.username === 'carol')!;
    expect(carol.locale).toBe('fr');
    expect(carol.lockPassword).toBe(true);
    await t.store.update((db) => {
      db.settings.authMethod = 'json';
    });
    expect((await loginWith(t, 'carol', 'New-password-456')).statusCode).toBe(200);
  });

  it('checks the local password on hook.action=pass', async () => {
    const { t } = await hook('echo hook.action=pass');
    await t.addUser({ username: 'dave', password: 'Dave-password-123', perm: {} });
    expect((await loginWith(t, 'dave', 'Dave-password-123')).statusCode).toBe(200);
    expect((await loginWith(t, 'dave', 'wrong-password')).statusCode).toBe(403);
    expect((await loginWith(t, 'nobody', 'Dave-password-123')).statusCode).toBe(403);
  });

  it.each([
    ['an unknown action', 'echo hook.action=maybe'],
    ['no action', 'echo nothing'],
    ['a failing program', 'exit 3'],
  ])('answers 500 for %s', async (_name, script) => {
    const { t } = await hook(script);
    expect((await loginWith(t, 'alice', 'S3cret-hook-pass')).statusCode).toBe(500);
  });
});
