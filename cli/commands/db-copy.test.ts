import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../tests/support/cli-io';
import { postgresForFile } from '../../tests/support/postgres';
import { completeEntry } from '../../server/activity/entry';
import { emptyDatabase } from '../../server/state/initial';
import { openStore } from '../../server/state/open-store';
import type { Database } from '../../server/state/schema';

const pg = postgresForFile();
let cwd = '';

beforeEach(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'filemgr-dbcopy-'));
});
afterEach(async () => {
  await rm(cwd, { recursive: true, force: true });
});

/** An installation with something in every collection, and two activity entries. */
function installation(): Database {
  const db = emptyDatabase();
  const d = db.settings.defaults;
  db.users.push({ ...d, id: 1, username: 'admin', password: '$2a$04$x', scope: '/', lockPassword: false, rules: [], sessionEpoch: 12 });
  db.users.push({ ...d, id: 2, username: 'ann', password: '$2a$04$y', scope: '/ann', lockPassword: true, rules: [{ regex: false, allow: false, path: '/x', regexp: null }], sessionEpoch: 0 });
  db.nextUserId = 3;
  db.shares.push({ hash: 'abc', path: '/a.txt', userID: 1, expire: 0, kind: 'download', maxDownloads: 5, downloads: 2 });
  db.tokens = [{ id: 't1', userId: 2, name: 'ci', hash: 'ff'.repeat(32), created: 1, expires: 0, lastUsed: 3, perm: d.perm }];
  db.totp = [{ userId: 2, secret: 'enc', enabled: true, lastStep: 9, recovery: ['aa'], created: 5 }];
  db.trash = [{ id: '0123456789abcdef', userId: 1, name: 'old.txt', path: '/old.txt', isDir: false, size: 4, deleted: 77 }];
  db.davProperties = { '/a.txt': [{ ns: 'urn:x', name: 'color', xml: '<color xmlns="urn:x">red</color>' }] };
  db.settings.signup = true;
  return db;
}

const entries = [
  completeEntry({ action: 'login', user: 'admin', address: '127.0.0.1' }, Date.now() - 60_000),
  completeEntry({ action: 'upload', user: 'ann', path: '/a.txt', bytes: 4 }, Date.now() - 1000),
];

async function writeInstallation(path: string): Promise<void> {
  await writeFile(path, JSON.stringify(installation()));
  await writeFile(`${path}.activity.jsonl`, entries.map((e) => `${JSON.stringify(e)}\n`).join(''));
}

async function stateAt(database: string): Promise<Database> {
  const { store } = await openStore(database);
  try {
    return structuredClone(store.data());
  } finally {
    await store.close?.();
  }
}

describe('filemgr db copy', () => {
  it('round-trips file -> PostgreSQL -> file: the same state and activity', async () => {
    const source = join(cwd, 'source.json');
    await writeInstallation(source);
    const url = await pg().newDatabase();
    const there = await runCli(['db', 'copy', '--from', 'source.json', '--to', url], { cwd });
    expect(there.stderr).toBe('');
    expect(there.code).toBe(0);
    expect(there.stdout).toMatch(/^Copied 2 users, 1 shares, 1 API tokens, 1 two-factor secrets, 1 paths with dead properties, 1 recycle bin records and 2 activity entries from .*source\.json to postgres:\/\/filemgr:\*\*\*@/);
    expect(there.stdout).not.toContain(new URL(url).password);
    const back = await runCli(['db', 'copy', '--from', url, '--to', 'back.json'], { cwd });
    expect(back.code).toBe(0);
    expect(await stateAt(join(cwd, 'back.json'))).toEqual(await stateAt(source));
    expect(await stateAt(url)).toEqual(await stateAt(source));
    const lines = (await readFile(join(cwd, 'back.json.activity.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as unknown);
    expect(lines).toEqual(entries);
  });

  it('refuses a target that holds a state unless --force, and then replaces it', async () => {
    const source = join(cwd, 'source.json');
    await writeInstallation(source);
    const url = await pg().newDatabase();
    const other = await openStore(url, { init: () => emptyDatabase() });
    await other.store.close?.();
    const refused = await runCli(['db', 'copy', '--from', source, '--to', url], { cwd });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/the target postgres:\/\/filemgr:\*\*\*@\S+ is not empty; filemgr left it untouched \(pass --force/);
    expect((await stateAt(url)).users).toEqual([]);
    const forced = await runCli(['db', 'copy', '--from', source, '--to', url, '--force'], { cwd });
    expect(forced.code).toBe(0);
    expect(await stateAt(url)).toEqual(await stateAt(source));
    const file = await runCli(['db', 'copy', '--from', url, '--to', source], { cwd });
    expect(file.stderr).toMatch(/the target \S+source\.json is not empty/);
  });

  it.each([
    [['db', 'copy', '--to', 'x.json'], 2, /db copy needs --from and --to/],
    [['db', 'copy', '--from', 'missing.json', '--to', 'x.json'], 1, /the database \S+missing\.json does not exist/],
    [['db', 'copy', '--from', 'a.json', '--to', 'a.json'], 1, /--from and --to name the same database/],
  ])('explains a command it cannot run: %j', async (argv, code, message) => {
    const r = await runCli(argv, { cwd });
    expect(r.code).toBe(code);
    expect(r.stderr).toMatch(message);
  });
});
