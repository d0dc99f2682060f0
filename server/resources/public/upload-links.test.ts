import { readdir, readFile, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import bcrypt from 'bcryptjs';
import { describe, expect, it } from 'vitest';
import { appsForEachTest } from '../../../tests/support/per-test';
import type { TestApp, TestUserFields } from '../../../tests/support/test-app';
import type { Tree } from '../../../tests/support/tree';
import type { Settings, ShareRecord } from '../../state/schema';

const start = appsForEachTest();

const OWNER: TestUserFields = { username: 'owner', perm: { share: true, download: true, create: true } };
const ADDRESS = '203.0.113.9';

interface Fixture {
  tree?: Tree;
  link?: Partial<ShareRecord>;
  password?: string;
  owner?: Partial<TestUserFields>;
}

/** 'owner' shares /inbox as upload link 'up' (and /inbox/ as download link 'down'). */
async function withUploadLink(f: Fixture = {}): Promise<TestApp> {
  const t = await start({ tree: f.tree ?? { 'inbox/report.pdf': 'old report', 'inbox/secret.txt': 'owner only', 'other.txt': 'o' } });
  const owner = await t.addUser({ ...OWNER, ...f.owner, perm: { ...OWNER.perm, ...f.owner?.perm } });
  const secrets = f.password === undefined ? {} : { password_hash: bcrypt.hashSync(f.password, 4), token: 'tok' };
  await t.store.update((db) => {
    db.shares.push({ hash: 'up', path: '/inbox/', userID: owner.id, expire: 0, kind: 'upload', uploads: 0, ...secrets, ...f.link });
    db.shares.push({ hash: 'down', path: '/inbox/', userID: owner.id, expire: 0 });
  });
  return t;
}

type Opts = { headers?: Record<string, string>; body?: string | Buffer; address?: string };
const request = (t: TestApp, call: `${'GET' | 'POST'} /${string}`, o: Opts = {}) =>
  t.app.inject({ method: call.startsWith('GET') ? 'GET' : 'POST', url: call.slice(call.indexOf(' ') + 1), headers: o.headers ?? {}, remoteAddress: o.address ?? ADDRESS, ...(o.body === undefined ? {} : { payload: o.body }) });
const upload = (t: TestApp, name: string, o: Opts) => request(t, `POST /api/public/upload/up/${name}`, o);
const inbox = async (t: TestApp): Promise<string[]> => (await readdir(join(t.root, 'inbox'))).sort();

describe('GET /api/public/share of an upload link', () => {
  it("answers the folder's name and never its contents", async () => {
    const t = await withUploadLink();
    const res = await request(t, 'GET /api/public/share/up');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ kind: 'upload', name: 'inbox', expire: 0, hasPassword: false });
    expect(res.body).not.toMatch(/report|secret/);
    expect((await request(t, 'GET /api/public/share/up/secret.txt')).body).not.toMatch(/owner only|items/);
  });

  it('asks for the password first, then gives the token as a download link does', async () => {
    const t = await withUploadLink({ password: 'pw' });
    expect((await request(t, 'GET /api/public/share/up')).statusCode).toBe(401);
    const res = await request(t, 'GET /api/public/share/up', { headers: { 'x-share-password': 'pw' } });
    expect(res.json()).toEqual({ kind: 'upload', name: 'inbox', expire: 0, hasPassword: true, token: 'tok' });
  });

  it('refuses /api/public/dl of an upload link (403), files and folder alike', async () => {
    const t = await withUploadLink();
    expect((await request(t, 'GET /api/public/dl/up')).statusCode).toBe(403);
    expect((await request(t, 'GET /api/public/dl/up/secret.txt')).statusCode).toBe(403);
    expect((await request(t, 'GET /api/public/dl/down/secret.txt')).statusCode).toBe(200);
  });
});

describe('POST /api/public/upload/{hash}/{name}', () => {
  it('stores a new file and counts it', async () => {
    const t = await withUploadLink();
    const res = await upload(t, 'notes.txt', { body: 'hello' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ name: 'notes.txt' });
    expect(await readFile(join(t.root, 'inbox/notes.txt'), 'utf8')).toBe('hello');
    expect(t.store.data().shares.find((s) => s.hash === 'up')?.uploads).toBe(1);
  });

  it('never overwrites: a taken name is stored as "name (1).ext", then "(2)"', async () => {
    const t = await withUploadLink();
    expect((await upload(t, 'report.pdf', { body: 'first' })).json()).toEqual({ name: 'report (1).pdf' });
    expect((await upload(t, 'report.pdf', { body: 'second' })).json()).toEqual({ name: 'report (2).pdf' });
    expect(await readFile(join(t.root, 'inbox/report.pdf'), 'utf8')).toBe('old report');
    expect(await readFile(join(t.root, 'inbox/report (2).pdf'), 'utf8')).toBe('second');
  });

  it('gives concurrent uploads of one name distinct names and loses none', async () => {
    const t = await withUploadLink();
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => upload(t, 'same.txt', { body: `body ${i}` })));
    const names = answers.map((r) => r.json<{ name: string }>().name);
    expect(new Set(names).size).toBe(8);
    const bodies = await Promise.all(names.map((n) => readFile(join(t.root, 'inbox', n), 'utf8')));
    expect(bodies.sort()).toEqual(Array.from({ length: 8 }, (_, i) => `body ${i}`).sort());
    expect((await inbox(t)).filter((n) => n.startsWith('.'))).toEqual([]);
  });

  it.each([
    { name: 'a path', url: 'sub/file.txt', status: 400 },
    { name: 'an encoded slash', url: 'sub%2Ffile.txt', status: 400 },
    { name: 'a backslash', url: 'a%5Cb.txt', status: 400 },
    { name: 'dot dot', url: '..', status: 400 },
    { name: 'encoded dot dot', url: '%2E%2E', status: 400 },
    { name: 'dot dot with a path', url: '../other.txt', status: 400 },
    { name: 'a leading dot', url: '.htaccess', status: 400 },
    { name: 'a temporary name', url: '.filemgr-tmp-x', status: 400 },
    { name: 'no name', url: '', status: 400 },
    { name: 'a NUL byte', url: 'a%00b', status: 400 },
    { name: 'a newline', url: 'a%0Ab', status: 400 },
    { name: 'an over-long name', url: 'x'.repeat(256), status: 400 },
  ])('refuses $name with $status and writes nothing', async ({ url, status }) => {
    const t = await withUploadLink();
    const before = await inbox(t);
    const res = await upload(t, url, { body: 'evil' });
    expect(res.statusCode).toBe(status);
    expect(await inbox(t)).toEqual(before);
    expect(await readFile(join(t.root, 'other.txt'), 'utf8')).toBe('o');
  });

  it("applies the owner's rules to the name (403)", async () => {
    const t = await withUploadLink({ owner: { rules: [{ regex: true, allow: false, path: '', regexp: { raw: '\\.exe$' } }] } });
    expect((await upload(t, 'tool.exe', { body: 'MZ' })).statusCode).toBe(403);
    expect((await upload(t, 'tool.txt', { body: 'ok' })).statusCode).toBe(201);
    expect(await inbox(t)).not.toContain('tool.exe');
  });

  it('never writes through a link out of the folder (403) and leaves its target alone', async () => {
    const t = await withUploadLink();
    await symlink(join(t.root, 'other.txt'), join(t.root, 'inbox', 'link.txt'));
    expect((await upload(t, 'link.txt', { body: 'evil' })).statusCode).toBe(403);
    expect(await readFile(join(t.root, 'other.txt'), 'utf8')).toBe('o');
  });

  it('needs the password or the token like a download link', async () => {
    const t = await withUploadLink({ password: 'pw' });
    expect((await upload(t, 'a.txt', { body: 'x' })).statusCode).toBe(401);
    expect((await upload(t, 'a.txt', { body: 'x', headers: { 'x-share-password': 'wrong' } })).statusCode).toBe(401);
    expect((await upload(t, 'a.txt', { body: 'x', headers: { 'x-share-password': 'pw' } })).statusCode).toBe(201);
    expect((await request(t, 'POST /api/public/upload/up/b.txt?token=tok', { body: 'y' })).statusCode).toBe(201);
    expect(await inbox(t)).toEqual(expect.arrayContaining(['a.txt', 'b.txt']));
  });

  it('refuses a download link (403), an unknown or expired link (404), an owner without create (403)', async () => {
    const t = await withUploadLink();
    expect((await request(t, 'POST /api/public/upload/down/a.txt', { body: 'x' })).statusCode).toBe(403);
    expect((await request(t, 'POST /api/public/upload/nope/a.txt', { body: 'x' })).statusCode).toBe(404);
    await t.store.update((db) => {
      const owner = db.users.find((u) => u.username === 'owner');
      if (owner) owner.perm.create = false;
    });
    expect((await upload(t, 'a.txt', { body: 'x' })).statusCode).toBe(403);
    const expired = await withUploadLink({ link: { expire: 1000 } });
    expect((await upload(expired, 'a.txt', { body: 'x' })).statusCode).toBe(404);
  });

  it('takes at most 60 files a minute per link and client address', async () => {
    const t = await withUploadLink();
    for (let i = 0; i < 60; i++) expect((await upload(t, `f${i}.txt`, { body: 'x' })).statusCode).toBe(201);
    expect((await upload(t, 'f60.txt', { body: 'x' })).statusCode).toBe(429);
    expect((await upload(t, 'f60.txt', { body: 'x', address: '198.51.100.1' })).statusCode).toBe(201);
    expect(t.store.data().shares.find((s) => s.hash === 'up')?.uploads).toBe(61);
  });

  it("runs the owner's upload hooks with the stored file", async () => {
    const commands = { after_upload: ['printf "%s %s" "$FILE" "$USERNAME" > "$DESTINATION/../seen"'] };
    const settings = (s: Settings): void => void Object.assign(s, { commands: { ...s.commands, ...commands }, shell: ['sh', '-c'] });
    const t = await start({ tree: { 'inbox/a.txt': 'old' }, env: { PATH: process.env.PATH }, config: { enableExec: true }, settings });
    const owner = await t.addUser(OWNER);
    await t.store.update((db) => void db.shares.push({ hash: 'up', path: '/inbox/', userID: owner.id, expire: 0, kind: 'upload' }));
    expect((await upload(t, 'a.txt', { body: 'new' })).json()).toEqual({ name: 'a (1).txt' });
    expect(await readFile(join(t.root, 'seen'), 'utf8')).toBe(`${join(t.root, 'inbox', 'a (1).txt')} owner`);
  });

  it('removes a file whose after_upload hook failed, as for the owner (500)', async () => {
    const settings = (s: Settings): void => void Object.assign(s, { commands: { ...s.commands, after_upload: ['false'] } });
    const t = await start({ tree: { 'inbox/keep.txt': 'k' }, env: { PATH: process.env.PATH }, config: { enableExec: true }, settings });
    const owner = await t.addUser(OWNER);
    await t.store.update((db) => void db.shares.push({ hash: 'up', path: '/inbox/', userID: owner.id, expire: 0, kind: 'upload' }));
    expect((await upload(t, 'a.txt', { body: 'x' })).statusCode).toBe(500);
    expect(await inbox(t)).toEqual(['keep.txt']);
    expect(t.store.data().shares[0]?.uploads).toBeUndefined();
  });
});
