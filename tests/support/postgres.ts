import { execFile, execFileSync, spawn, type ExecFileOptions } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { appendFile, chown, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from '../../build/free-port';
import { afterAll, beforeAll } from 'vitest';

/**
 * A real PostgreSQL from the Debian packages (`postgresql`, scripts/test-packages.txt), started in
 * a temporary folder for one test file and stopped after it: listening on 127.0.0.1 only (and a
 * unix socket in that folder), with durability turned off (fsync, synchronous_commit,
 * full_page_writes: a test database never survives a crash anyway). PostgreSQL refuses to run as
 * root, so under root (CI) initdb and the server run as the `postgres` system user, which owns the
 * folder; as a normal user they run as that user.
 */
export interface TestPostgres {
  /** `postgres://filemgr:<password>@127.0.0.1:<port>/filemgr` */
  url: string;
  port: number;
  /** How long initdb plus the server start took (ms). */
  startMs: number;
  /** Creates one more empty database and answers its URL (isolates one test from another). */
  newDatabase(): Promise<string>;
  /** Stops the server at once (`pg_ctl stop -m immediate`) and removes the folder. */
  stop(): Promise<void>;
}

const USER = 'filemgr';
const DATABASE = 'filemgr';

interface Layout {
  bin: string;
  dir: string;
  data: string;
  /** Who runs initdb and the server: the `postgres` account under root, else undefined (us). */
  as: { uid: number; gid: number } | undefined;
}

/** Everything started and not stopped yet: stopped when the process exits, whatever happened. */
const running = new Set<Layout>();
let exitHookInstalled = false;

/** The bin folder of the newest PostgreSQL installed from Debian's packages. */
export function postgresBin(): string {
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base) ? readdirSync(base).filter((v) => /^\d+$/.test(v)) : [];
  const found = versions
    .sort((a, b) => Number(b) - Number(a))
    .map((v) => join(base, v, 'bin'))
    .find((bin) => existsSync(join(bin, 'initdb')) && existsSync(join(bin, 'pg_ctl')));
  if (!found) throw new Error('PostgreSQL is not installed: run bash scripts/install-test-deps.sh');
  return found;
}

/** Starts a fresh PostgreSQL; the caller stops it (or use `postgresForFile`). */
export async function startPostgres(): Promise<TestPostgres> {
  const started = Date.now();
  const as = systemAccount();
  const dir = await mkdtemp(join(as ? '/tmp' : tmpdir(), 'filemgr-pg-'));
  const layout: Layout = { bin: postgresBin(), dir, data: join(dir, 'data'), as };
  installExitHook();
  running.add(layout);
  try {
    if (as) await chown(dir, as.uid, as.gid);
    const password = randomBytes(18).toString('base64url');
    await initdb(layout, password);
    const port = await startServer(layout);
    watchdog(layout);
    const url = `postgres://${USER}:${password}@127.0.0.1:${port}/${DATABASE}`;
    await createDatabase(url, DATABASE);
    return handle(layout, { url, port, startMs: Date.now() - started });
  } catch (error) {
    stopNow(layout);
    throw error;
  }
}

/** One PostgreSQL for the calling test file: started before its tests, stopped after them. */
export function postgresForFile(): () => TestPostgres {
  let server: TestPostgres | undefined;
  beforeAll(async () => {
    server = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });
  return () => {
    if (!server) throw new Error('PostgreSQL is not started yet (call inside a test or hook)');
    return server;
  };
}

function handle(layout: Layout, at: Pick<TestPostgres, 'url' | 'port' | 'startMs'>): TestPostgres {
  const { url } = at;
  let next = 0;
  return {
    ...at,
    async newDatabase() {
      const name = `t${++next}_${randomBytes(3).toString('hex')}`;
      await createDatabase(url, name);
      const u = new URL(url);
      u.pathname = `/${name}`;
      return u.toString();
    },
    stop() {
      stopNow(layout);
      return Promise.resolve();
    },
  };
}

/** Under root, the uid and gid of the `postgres` system account (the Debian package creates it). */
function systemAccount(): Layout['as'] {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    throw new Error('running as root needs the postgres system account (Debian package postgresql)');
  }
}

/** Runs a PostgreSQL program as the layout's account (Node drops root and its groups itself). */
function run(layout: Layout, program: string, args: string[]): Promise<string> {
  const options: ExecFileOptions = { cwd: layout.dir, env: { ...process.env, LC_ALL: 'C.UTF-8', TZ: 'UTC' } };
  if (layout.as) Object.assign(options, layout.as);
  return new Promise((resolve, reject) => {
    execFile(join(layout.bin, program), args, options, (error, stdout, stderr) => {
      if (error) reject(new Error(`${program} failed: ${error.message}\n${String(stderr)}`));
      else resolve(String(stdout));
    });
  });
}

async function initdb(layout: Layout, password: string): Promise<void> {
  const pwfile = join(layout.dir, 'pwfile');
  await writeFile(pwfile, password, { mode: 0o600 });
  if (layout.as) await chown(pwfile, layout.as.uid, layout.as.gid);
  await run(layout, 'initdb', [
    '-D', layout.data, '-U', USER, `--pwfile=${pwfile}`, '--auth-local=trust', '--auth-host=scram-sha-256',
    '--encoding=UTF8', '--no-sync', '--no-instructions',
  ]);
  rmSync(pwfile);
  const settings = {
    listen_addresses: "'127.0.0.1'",
    unix_socket_directories: `'${layout.dir}'`,
    fsync: 'off',
    synchronous_commit: 'off',
    full_page_writes: 'off',
    shared_buffers: "'16MB'",
    max_connections: '200',
    logging_collector: 'off',
  };
  const lines = Object.entries(settings).map(([k, v]) => `${k} = ${v}`);
  await appendFile(join(layout.data, 'postgresql.conf'), `\n# filemgr tests\n${lines.join('\n')}\n`);
}

/** Starts the server on a free port; another process may take that port first, so it retries. */
async function startServer(layout: Layout): Promise<number> {
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const log = join(layout.dir, 'server.log');
    try {
      await run(layout, 'pg_ctl', ['start', '-D', layout.data, '-w', '-t', '60', '-l', log, '-o', `-p ${port}`]);
      return port;
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError instanceof Error ? lastError : new Error('PostgreSQL did not start');
}

async function createDatabase(url: string, name: string): Promise<void> {
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
}

/**
 * Stops the server without waiting for clients (`-m immediate`) and removes its folder.
 * Synchronous so the exit hook can call it too; a server already gone is fine.
 */
function stopNow(layout: Layout): void {
  if (!running.delete(layout)) return;
  if (existsSync(join(layout.data, 'postmaster.pid'))) {
    try {
      execFileSync(join(layout.bin, 'pg_ctl'), ['stop', '-D', layout.data, '-m', 'immediate', '-w'], {
        cwd: layout.dir,
        stdio: 'ignore',
        ...layout.as,
      });
    } catch {
      // Not running (it never started, or it died): nothing to stop.
    }
  }
  rmSync(layout.dir, { recursive: true, force: true });
}

/**
 * A shell that outlives this process: when the test process is gone (killed, so no exit hook
 * ran) it stops the server (SIGQUIT to the postmaster is the immediate shutdown) and removes the
 * folder. It ends by itself once `stop()` has removed the folder.
 */
function watchdog(layout: Layout): void {
  const script = [
    'while kill -0 "$1" 2>/dev/null && [ -d "$2" ]; do sleep 1; done',
    '[ -d "$2" ] || exit 0',
    'pid=$(head -n 1 "$2/data/postmaster.pid" 2>/dev/null) && kill -QUIT "$pid" 2>/dev/null && sleep 2',
    'rm -rf "$2"',
  ].join('\n');
  spawn('sh', ['-c', script, 'watchdog', String(process.pid), layout.dir], { detached: true, stdio: 'ignore' }).unref();
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const layout of [...running]) stopNow(layout);
  });
}
