import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import bcrypt from 'bcryptjs';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../server/state/schema';
import { SETTINGS_FLAGS, USER_FLAGS } from '../flags';
import { run } from '../run';
import { memoryIo, runCli } from '../../tests/support/cli-io';

async function workdir(): Promise<string> {
  const cwd = await mkdtemp(join(tmpdir(), 'filemgr-serve-'));
  await mkdir(join(cwd, 'files'));
  return cwd;
}

const LISTENING = /listening on (\S+?)"/;

/** Starts `filemgr <argv>` in-process; resolves once it listens. */
async function serve(cwd: string, argv: string[], env: Record<string, string> = {}) {
  const io = memoryIo(cwd);
  const done = run(['-r', 'files', '-p', '0', ...argv], { HOME: cwd, ...env }, io);
  const failed = done.then((code) => {
    throw new Error(`exited ${code} before listening: ${io.err()}`);
  });
  const line = await Promise.race([io.waitFor(LISTENING), failed]);
  const where = LISTENING.exec(line)?.[1] ?? '';
  const stop = async (): Promise<number> => {
    io.stop();
    return done;
  };
  return { io, where, stop };
}

function get(url: string, socketPath?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(socketPath ? { socketPath, path: url } : url, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function readDb(cwd: string, name = 'filemgr.json'): Promise<Database> {
  return JSON.parse(await readFile(join(cwd, name), 'utf8')) as Database;
}

/** Leaf paths (dotted, `defaults.` dropped) where `a` differs from `b`, with `a`'s value. */
function differences(a: unknown, b: unknown, path = ''): [string, string][] {
  if (a !== null && typeof a === 'object' && b !== null && typeof b === 'object' && !Array.isArray(a)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
    return keys.flatMap((k) => differences((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], path ? `${path}.${k}` : k));
  }
  return JSON.stringify(a) === JSON.stringify(b) ? [] : [[path.replace(/^defaults\./, ''), String(a)]];
}

const PASSWORD_FILE = /^([A-Za-z0-9_-]{16})\n$/;
/** What a first run without a terminal on stdout logs instead of the password. */
const PASSWORD_ANNOUNCED = /^User 'admin' initialized with a randomly generated password, written to \S+\/filemgr\.json\.admin-password /m;

describe('filemgr (serve)', () => {
  it('creates the database and the admin on first run, writes the password beside it (stdout is no terminal), and serves', async () => {
    const cwd = await workdir();
    const first = await serve(cwd, []);
    const password = PASSWORD_FILE.exec(await readFile(join(cwd, 'filemgr.json.admin-password'), 'utf8'))?.[1];
    expect(password).toBeDefined();
    expect(first.io.out()).not.toContain(password);
    expect((await get(`${first.where}/health`)).body).toBe('{"status":"OK"}');
    expect(await first.stop()).toBe(0);

    const db = await readDb(cwd);
    expect(db.settings.authMethod).toBe('json');
    expect(Buffer.from(db.settings.key, 'base64')).toHaveLength(64);
    expect(db.users).toHaveLength(1);
    const admin = db.users[0]!;
    expect(admin).toMatchObject({ id: 1, username: 'admin', scope: '.', lockPassword: false, sessionEpoch: 0, locale: 'en' });
    expect(admin.perm).toEqual({ admin: true, execute: true, create: true, rename: true, modify: true, delete: true, share: true, download: true });
    expect(await bcrypt.compare(password!, admin.password)).toBe(true);
    expect(admin.password).toMatch(/^\$2a\$10\$/);
    expect(db.server.root).toBe(join(cwd, 'files'));

    const second = await serve(cwd, []);
    expect(second.io.out()).not.toMatch(/initialized with/);
    expect(await second.stop()).toBe(0);
    expect((await readDb(cwd)).users[0]!.password).toBe(admin.password);
  });

  it('stores the flag defaults on first start, except where the flag table notes the first start\'s value', async () => {
    const cwd = await workdir();
    expect(await (await serve(cwd, [])).stop()).toBe(0);
    const first = await readDb(cwd);
    expect(first.settings.hideLoginButton).toBe(true);
    expect(first.settings.defaults).toMatchObject({ viewMode: 'mosaic', redirectAfterCopyMove: true, sorting: { by: 'name', asc: false } });
    expect(first.users[0]).toMatchObject({ viewMode: 'mosaic', redirectAfterCopyMove: true });
    expect((await runCli(['config', 'init', '-d', 'init.json'], { cwd })).code).toBe(0);
    const init = await readDb(cwd, 'init.json');
    const noted = [...SETTINGS_FLAGS, ...USER_FLAGS].flatMap((def): [string, string][] => {
      const value = /\(a first start stores (\S+)\)$/.exec(def.description)?.[1];
      return value === undefined ? [] : [[def.name, value]];
    });
    expect(noted).toHaveLength(3);
    expect(differences({ ...first.settings, key: '' }, { ...init.settings, key: '' }).sort()).toEqual(noted.sort());
  });

  it('uses --username and an already-hashed --password, printing no password', async () => {
    const cwd = await workdir();
    const hash = await bcrypt.hash('correct horse battery', 10);
    const s = await serve(cwd, ['--username', 'boss', '--password', hash]);
    expect(s.io.out()).not.toMatch(/initialized with/);
    await s.stop();
    expect((await readDb(cwd)).users[0]).toMatchObject({ id: 1, username: 'boss', password: hash });
  });

  it('takes the first user from FB_ variables as a filebrowser deployment sets them', async () => {
    const cwd = await workdir();
    const hash = await bcrypt.hash('correct horse battery', 10);
    const s = await serve(cwd, [], { FB_USERNAME: 'root', FB_PASSWORD: hash, FB_NOAUTH: 'true' });
    await s.stop();
    const db = await readDb(cwd);
    expect(db.users[0]).toMatchObject({ username: 'root', password: hash });
    expect(db.settings.authMethod).toBe('noauth');
    expect(db.auther).toEqual({});
  });

  it('refuses a --password that is not a bcrypt hash, creating nothing', async () => {
    const cwd = await workdir();
    const { code, stderr } = await runCli(['-r', 'files', '--password', 'plain'], { cwd });
    expect(code).toBe(2);
    expect(stderr).toBe('filemgr: --password takes a bcrypt hash (make one with filemgr hash <password>), not the password itself; see filemgr --help\n');
    await expect(stat(join(cwd, 'filemgr.json'))).rejects.toThrow();
  });

  it('stops with "root ... does not exist" and creates no database', async () => {
    const cwd = await workdir();
    const { code, stdout, stderr } = await runCli(['-r', '/nonexistent-root'], { cwd });
    expect(code).toBe(1);
    expect(stderr).toBe('filemgr: root /nonexistent-root does not exist\n');
    expect(stdout).toBe('');
    await expect(stat(join(cwd, 'filemgr.json'))).rejects.toThrow();
  });

  it.each([
    ['corrupt', '{ "settings": ', /^filemgr: the database \S+ is corrupt \(.*\); filemgr left it untouched: restore it from a backup or point --database elsewhere\n$/],
    ['newer', JSON.stringify({ version: 99, settings: {}, server: {} }), /^filemgr: the database \S+ was written by a newer filemgr \(schema 99, this build knows \d+\); upgrade filemgr\n$/],
  ])('stops on a %s database with one line and leaves the file untouched', async (_kind, content, line) => {
    const cwd = await workdir();
    await writeFile(join(cwd, 'filemgr.json'), content);
    const { code, stderr } = await runCli(['-r', 'files'], { cwd });
    expect(code).toBe(1);
    expect(stderr).toMatch(line);
    expect(await readFile(join(cwd, 'filemgr.json'), 'utf8')).toBe(content);
  });

  it('refuses an empty database file with one line and leaves it untouched, creating no admin', async () => {
    const cwd = await workdir();
    await writeFile(join(cwd, 'filemgr.json'), '');
    const { code, stdout, stderr } = await runCli(['-r', 'files'], { cwd });
    expect(code).toBe(1);
    expect(stderr).toMatch(/^filemgr: the database \S+filemgr\.json is empty; filemgr left it untouched: restore it from a backup, delete it to create a new one, or point --database elsewhere\n$/);
    expect(stdout).not.toMatch(PASSWORD_ANNOUNCED);
    expect(await readFile(join(cwd, 'filemgr.json'), 'utf8')).toBe('');
  });

  it.each([[['config', 'init']], [['users', 'ls']]])('%j refuses an empty database file too and leaves it untouched', async (argv) => {
    const cwd = await workdir();
    await writeFile(join(cwd, 'filemgr.json'), '');
    const { code } = await runCli(argv, { cwd });
    expect(code).toBe(1);
    expect(await readFile(join(cwd, 'filemgr.json'), 'utf8')).toBe('');
  });

  it('stores a relative --root as an absolute path, so a start from elsewhere serves the same folder', async () => {
    const cwd = await workdir();
    const s = await serve(cwd, []);
    await s.stop();
    expect((await readDb(cwd)).server.root).toBe(join(cwd, 'files'));
    const elsewhere = await workdir();
    const database = join(cwd, 'filemgr.json');
    expect((await runCli(['config', 'set', '-r', 'demo', '--database', database], { cwd: elsewhere })).code).toBe(0);
    expect((await readDb(cwd)).server.root).toBe(join(elsewhere, 'demo'));
  });

  it('says which port is taken', async () => {
    const cwd = await workdir();
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as { port: number }).port;
    try {
      const { code, stderr } = await runCli(['-r', 'files', '-p', String(port)], { cwd });
      expect(stderr).toBe(`filemgr: port ${port} on 127.0.0.1 is already in use\n`);
      expect(code).toBe(1);
    } finally {
      blocker.close();
    }
  });

  it('refuses --socket together with an explicit --address', async () => {
    const cwd = await workdir();
    const { code, stderr } = await runCli(['-r', 'files', '--socket', 's.sock', '-a', '0.0.0.0'], { cwd });
    expect(code).toBe(2);
    expect(stderr).toBe('filemgr: --socket cannot be used with --address, --port, --cert or --key; see filemgr --help\n');
  });

  it('listens on a unix socket with --socketPerm', async () => {
    const cwd = await workdir();
    const io = memoryIo(cwd);
    const done = run(['-r', 'files', '--socket', 'fm.sock', '--socketPerm', '0600'], { HOME: cwd }, io);
    await io.waitFor(`listening on ${join(cwd, 'fm.sock')}`);
    expect((await stat(join(cwd, 'fm.sock'))).mode & 0o777).toBe(0o600);
    expect((await get('/health', join(cwd, 'fm.sock'))).status).toBe(200);
    io.stop();
    expect(await done).toBe(0);
  });

  it('serves HTTPS with --cert and --key', async () => {
    const cwd = await workdir();
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(cwd, 'k.pem'), '-out', join(cwd, 'c.pem'), '-days', '2', '-subj', '/CN=localhost'], { stdio: 'ignore' });
    const s = await serve(cwd, ['-t', 'c.pem', '-k', 'k.pem']);
    expect(s.where).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(await s.stop()).toBe(0);
  });

  it.each([
    ['a missing certificate', async (cwd: string) => { await writeFile(join(cwd, 'k.pem'), 'x'); }, /^filemgr: cannot read the TLS certificate \S+c\.pem: ENOENT\n$/],
    ['an invalid certificate', async (cwd: string) => { await writeFile(join(cwd, 'k.pem'), 'x'); await writeFile(join(cwd, 'c.pem'), 'not a cert'); }, /^filemgr: the TLS certificate \S+c\.pem and key \S+k\.pem are not a usable pair \([^\n]+\)\n$/],
  ])('stops with one line on %s', async (_name, prepare, line) => {
    const cwd = await workdir();
    await prepare(cwd);
    const { code, stderr } = await runCli(['-r', 'files', '-p', '0', '-t', 'c.pem', '-k', 'k.pem'], { cwd });
    expect(stderr).toMatch(line);
    expect(code).toBe(1);
  });

  it('logs to a file with --log, and warns when command execution is enabled', async () => {
    const cwd = await workdir();
    const io = memoryIo(cwd);
    const done = run(['-r', 'files', '-p', '0', '--log', 'logs/filemgr.log', '--disableExec=false'], { HOME: cwd }, io);
    let log = '';
    for (let i = 0; i < 200 && !/listening on/.test(log); i++) {
      await new Promise((r) => setTimeout(r, 25));
      log = await readFile(join(cwd, 'logs/filemgr.log'), 'utf8').catch(() => '');
    }
    io.stop();
    expect(await done).toBe(0);
    expect(log).toMatch(/"level":40,.*"msg":"command execution is enabled/);
    expect(io.out()).not.toMatch(/listening on/);
    expect(io.out()).toMatch(PASSWORD_ANNOUNCED);
  });

  it('stops accepting on SIGINT too and exits 0', async () => {
    const cwd = await workdir();
    const s = await serve(cwd, []);
    s.io.stop('SIGINT');
    expect(await s.stop()).toBe(0);
    await expect(get(`${s.where}/health`)).rejects.toThrow();
    expect(s.io.out()).toMatch(/SIGINT received/);
  });
});
