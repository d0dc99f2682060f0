import { chmod, mkdir, mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import bcrypt from 'bcryptjs';
import { describe, expect, it } from 'vitest';
import type { Database } from '../server/state/schema';
import { announceFirstPassword } from './first-password';
import { run } from './run';
import { memoryIo } from '../tests/support/cli-io';

async function workdir(): Promise<string> {
  const cwd = await mkdtemp(join(tmpdir(), 'filemgr-first-password-'));
  await mkdir(join(cwd, 'files'));
  return cwd;
}

/** Runs a first start until it listens, with stdout a terminal or not; returns what it wrote. */
async function firstStart(cwd: string, isTTY: boolean) {
  const base = memoryIo(cwd);
  const io = { ...base, stdout: { ...base.stdout, isTTY } };
  const done = run(['-r', 'files', '-p', '0', '--logFormat', 'json'], { HOME: cwd }, io);
  await base.waitFor('listening on');
  base.stop();
  expect(await done).toBe(0);
  const db = JSON.parse(await readFile(join(cwd, 'filemgr.json'), 'utf8')) as Database;
  return { out: base.out(), err: base.err(), hash: db.users[0]?.password ?? '' };
}

describe('the first admin password', () => {
  it('is printed once when stdout is a terminal, and no file is written', async () => {
    const cwd = await workdir();
    const { out, hash } = await firstStart(cwd, true);
    const password = /^User 'admin' initialized with randomly generated password: ([A-Za-z0-9_-]{16})$/m.exec(out)?.[1] ?? '';
    expect(await bcrypt.compare(password, hash)).toBe(true);
    await expect(stat(join(cwd, 'filemgr.json.admin-password'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('goes to <database>.admin-password, mode 0600, when stdout is not a terminal; the log names only the file', async () => {
    const cwd = await workdir();
    const file = join(cwd, 'filemgr.json.admin-password');
    const { out, hash } = await firstStart(cwd, false);
    const password = (await readFile(file, 'utf8')).trimEnd();
    expect(await bcrypt.compare(password, hash)).toBe(true);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(out).not.toContain(password);
    expect(out).toContain(`User 'admin' initialized with a randomly generated password, written to ${file} (mode 0600, readable by this user only): sign in, change the password, then delete the file\n`);
  });

  it('replaces a file left from an earlier database and makes it 0600 again', async () => {
    const cwd = await workdir();
    const file = join(cwd, 'filemgr.json.admin-password');
    await writeFile(file, 'old-password-from-before\n');
    await chmod(file, 0o644);
    const { hash } = await firstStart(cwd, false);
    expect(await bcrypt.compare((await readFile(file, 'utf8')).trimEnd(), hash)).toBe(true);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('is printed after all when the file cannot be written', async () => {
    const cwd = await workdir();
    const io = memoryIo(cwd);
    // A directory where the file should go: open() fails with EISDIR, for root too.
    await mkdir(join(cwd, 'db.json.admin-password'));
    await announceFirstPassword(io, { username: 'admin', password: 'p4ssw0rd-p4ssw0rd', database: join(cwd, 'db.json') });
    expect(io.err()).toBe(`filemgr: cannot write the admin password to ${join(cwd, 'db.json.admin-password')}: it is a directory (EISDIR); printing it instead\n`);
    expect(io.out()).toBe("User 'admin' initialized with randomly generated password: p4ssw0rd-p4ssw0rd\n");
  });
});
