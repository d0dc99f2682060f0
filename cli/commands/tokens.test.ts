import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { defaultServerConfig } from '../../server/config';
import { noAssets } from '../../server/lib/assets';
import type { Database } from '../../server/state/schema';
import { openFileStore } from '../../server/state/store';
import { runCli } from '../../tests/support/cli-io';

async function setup(): Promise<string> {
  const cwd = await mkdtemp(join(tmpdir(), 'filemgr-tokens-cli-'));
  expect((await runCli(['config', 'init', '--root', '.'], { cwd })).code).toBe(0);
  expect((await runCli(['users', 'add', 'bob', 'Bob-long-Passw0rd', '--perm.create=false'], { cwd })).code).toBe(0);
  expect((await runCli(['users', 'add', 'carol', 'Carol-long-Passw0rd'], { cwd })).code).toBe(0);
  return cwd;
}
const readDb = async (cwd: string) => JSON.parse(await readFile(join(cwd, 'filemgr.json'), 'utf8')) as Database;

async function ok(cwd: string, ...argv: string[]): Promise<string> {
  const r = await runCli(argv, { cwd });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return r.stdout;
}

async function withApp(cwd: string, fn: (get: (token: string) => Promise<number>) => Promise<void>): Promise<void> {
  const { store } = await openFileStore(join(cwd, 'filemgr.json'));
  const app = await buildApp({ store, config: defaultServerConfig({ root: cwd }), assets: noAssets() });
  try {
    await fn(async (token) => (await app.inject({ method: 'GET', url: '/api/resources/', headers: { authorization: `Bearer ${token}` } })).statusCode);
  } finally {
    await app.close();
  }
}

describe('filemgr tokens add|ls|rm', () => {
  it('adds a token printed alone, stores only its hash, lists it and revokes it', async () => {
    const cwd = await setup();
    const out = await ok(cwd, 'tokens', 'add', 'bob', 'backup job', '--expires', '7', '--perm', 'download');
    const token = out.trim();
    expect(out).toMatch(/^fm_[A-Za-z0-9_-]{43}\n$/);
    const db = await readDb(cwd);
    const record = db.tokens?.[0];
    expect(record).toMatchObject({ name: 'backup job', userId: db.users.find((u) => u.username === 'bob')?.id, perm: { download: true, create: false, admin: false } });
    expect(JSON.stringify(db)).not.toContain(token);
    const listed = await ok(cwd, 'tokens', 'ls');
    expect(listed).toContain('backup job');
    expect(listed).toContain('bob');
    expect(listed).toContain(record?.id ?? '?');
    expect(listed).not.toContain(token);
    expect(await ok(cwd, 'tokens', 'ls', 'carol')).not.toContain('backup job');
    await withApp(cwd, async (get) => expect(await get(token)).toBe(200));
    expect(await ok(cwd, 'tokens', 'rm', record?.id ?? '')).toBe(`token ${record?.id} revoked\n`);
    expect((await readDb(cwd)).tokens).toEqual([]);
    await withApp(cwd, async (get) => expect(await get(token)).toBe(401));
  });

  it.each([
    ['a permission the user lacks', ['tokens', 'add', 'bob', 'x', '--perm', 'create'], /create/],
    ['an unknown permission', ['tokens', 'add', 'bob', 'x', '--perm', 'fly'], /unknown permission "fly"/],
    ['an unknown user', ['tokens', 'add', 'dave', 'x'], /no user dave/],
    ['an empty name', ['tokens', 'add', 'bob', ' '], /name is empty/],
    ['an unknown token id', ['tokens', 'rm', 'nope'], /no token nope/],
  ])('refuses %s and changes nothing', async (_what, argv, message) => {
    const cwd = await setup();
    const before = await readFile(join(cwd, 'filemgr.json'), 'utf8');
    const r = await runCli(argv, { cwd });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(message);
    expect(await readFile(join(cwd, 'filemgr.json'), 'utf8')).toBe(before);
  });
});
