// The built executable with password sign-in (not --noauth, under which every request is the first
// user and no credential is checked): its first admin's password, read from the file a first run
// writes (<database>.admin-password), and users made through POST /api/users.
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expectAsk } from './http-call';
import { freePort, startUntil200, stop } from './measure';

const EXECUTABLE = process.env.BENCH_FILEMGR ?? fileURLToPath(new URL('../../dist/filemgr', import.meta.url));

/** A filemgr process with password sign-in, signed in as its admin. */
export interface AccountsFilemgr {
  base: string;
  pid: number;
  /** The admin's password and session token (a JWT from POST /api/login). */
  adminPassword: string;
  jwt: string;
  stop(): Promise<void>;
}

/** POST /api/login; the session token (a JWT). `otp` for a user with two-factor sign-in. */
export async function login(base: string, creds: { username: string; password: string; otp?: string }): Promise<{ jwt: string; ms: number }> {
  const res = await expectAsk({ method: 'POST', url: `${base}/api/login`, headers: { 'content-type': 'application/json' }, body: JSON.stringify(creds) }, 200);
  return { jwt: res.body, ms: res.ms };
}

/** Starts dist/filemgr on `root` with a fresh database and password sign-in; signs its admin in. */
export async function startWithAccounts(root: string): Promise<AccountsFilemgr> {
  const state = await mkdtemp(join(tmpdir(), 'filemgr-bench-state-'));
  await mkdir(join(state, 'home'));
  const port = await freePort();
  const database = join(state, 'filemgr.json');
  const base = `http://127.0.0.1:${port}`;
  const run = await startUntil200(EXECUTABLE, ['--port', String(port), '--root', root, '--database', database], { url: `${base}/health`, env: { HOME: join(state, 'home') }, cwd: state });
  try {
    const adminPassword = (await readFile(`${database}.admin-password`, 'utf8')).trim();
    const { jwt } = await login(base, { username: 'admin', password: adminPassword });
    return {
      base,
      pid: run.child.pid ?? 0,
      adminPassword,
      jwt,
      async stop() {
        await stop(run.child);
        await rm(state, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await stop(run.child);
    throw err;
  }
}

/** Creates a user through POST /api/users (the default settings; rights to create and share). */
export async function createUser(server: AccountsFilemgr, user: { username: string; password: string }): Promise<void> {
  const auth = { 'x-auth': server.jwt };
  const settings = JSON.parse((await expectAsk({ method: 'GET', url: `${server.base}/api/settings`, headers: auth }, 200)).body) as { defaults: Record<string, unknown> };
  const data = { ...settings.defaults, lockPassword: false, rules: [], ...user };
  const body = JSON.stringify({ what: 'user', which: [], current_password: server.adminPassword, data });
  await expectAsk({ method: 'POST', url: `${server.base}/api/users`, headers: { ...auth, 'content-type': 'application/json' }, body }, 201);
}
