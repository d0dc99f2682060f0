// B3 accounts (beyond.md §4.1-4.2), against the built executable with password sign-in:
// - API tokens: the time of one GET /api/usage/ signed in with an API token (`fm_…`, made by
//   POST /api/tokens), as `Authorization: Bearer` and as `X-Auth`, against the same request with the
//   admin's session JWT from POST /api/login. /api/usage/ is the route because its own work is small
//   and steady (the path gate and one statfs, no listing, no state write), so what differs is the
//   credential check. Sequential requests over one keep-alive connection, in interleaved blocks of
//   100 per credential; the median per request. Baseline: the JWT's median; goal: a token adds < 1 ms.
// - TOTP sign-in: POST /api/login with the password and a correct `otp`, against the same login of a
//   user without two-factor sign-in (bcrypt, cost 10, dominates both); goal: the check adds < 1 ms.
//   A code is accepted once (its 30 s step must come after the last one used), so the HTTP path is
//   repeated over several users: each is enrolled (POST /api/totp, then /api/totp/confirm with the
//   code of the previous step, which the one step of drift accepts), then signs in twice, with the
//   code of the current step and of the next one (drift again). Codes come from the `otpauth` package.
// - The TOTP check alone, in process (totp-check.ts), against its goal of 1 ms.
// BENCH_TOKEN_REQUESTS (default 2000 per credential), BENCH_TOTP_USERS (default 15: 30 TOTP logins,
// interleaved with as many plain ones).
import { Agent } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Secret, TOTP } from 'otpauth';
import { createUser, login, startWithAccounts, type AccountsFilemgr } from './filemgr-accounts';
import { envNumber } from './filemgr-process';
import { expectAsk } from './http-call';
import { totpCheckFigure } from './totp-check';
import { median, sleep, type Benchmark, type Figure } from './measure';

const BLOCK = 100;
const STEP_MS = 30_000;
const PASSWORD = 'bench-Qx7!vLm2#pR9zT';

type Credential = 'jwt' | 'bearer' | 'xauth';

const signed = (ms: number): string => `${ms >= 0 ? '+' : ''}${ms.toFixed(3)}`;

async function newToken(server: AccountsFilemgr): Promise<string> {
  const body = JSON.stringify({ name: 'bench', expiresInDays: 1 });
  const res = await expectAsk({ method: 'POST', url: `${server.base}/api/tokens`, headers: { 'x-auth': server.jwt, 'content-type': 'application/json' }, body }, 201);
  return (JSON.parse(res.body) as { token: string }).token;
}

/** Per-request medians of GET /api/usage/ with each credential, `count` requests each. */
async function tokenFigures(server: AccountsFilemgr, count: number, log: (line: string) => void): Promise<Figure[]> {
  const token = await newToken(server);
  const headers: Record<Credential, Record<string, string>> = { jwt: { 'x-auth': server.jwt }, bearer: { authorization: `Bearer ${token}` }, xauth: { 'x-auth': token } };
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const samples: Record<Credential, number[]> = { jwt: [], bearer: [], xauth: [] };
  try {
    const get = (c: Credential) => expectAsk({ method: 'GET', url: `${server.base}/api/usage/`, headers: headers[c], agent }, 200);
    // Untimed warm-up of every path (JIT, the token's first lastUsed write).
    for (let i = 0; i < BLOCK; i++) for (const c of ['jwt', 'bearer', 'xauth'] as const) await get(c);
    const block = async (c: Credential) => {
      for (let i = 0; i < BLOCK; i++) samples[c].push((await get(c)).ms);
    };
    for (let done = 0; done < count; done += BLOCK) for (const c of ['jwt', 'bearer', 'xauth'] as const) await block(c);
  } finally {
    agent.destroy();
  }
  const med = (c: Credential) => median(samples[c]);
  log(`  GET /api/usage/, median of ${samples.jwt.length} each: JWT ${med('jwt').toFixed(3)} ms, token as Bearer ${med('bearer').toFixed(3)} ms (${signed(med('bearer') - med('jwt'))}), token as X-Auth ${med('xauth').toFixed(3)} ms (${signed(med('xauth') - med('jwt'))})`);
  const jwt = { label: 'the same with the session JWT', value: med('jwt') };
  return [
    { label: 'API token as Bearer, per request (goal +<1 ms)', value: med('bearer'), unit: 'ms', baseline: jwt },
    { label: 'API token as X-Auth, per request (goal +<1 ms)', value: med('xauth'), unit: 'ms', baseline: jwt },
  ];
}

const totpOf = (secret: string) => new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });

/** Waits when the current 30 s step ends within 3 s, so a code made now is still in the server's window. */
async function awayFromStepEnd(): Promise<void> {
  const left = STEP_MS - (Date.now() % STEP_MS);
  if (left < 3000) await sleep(left + 50);
}

/** Makes user `name` and turns two-factor sign-in on, confirmed with the previous step's code; its secret. */
async function enrolledUser(server: AccountsFilemgr, name: string): Promise<string> {
  await createUser(server, { username: name, password: PASSWORD });
  const { jwt } = await login(server.base, { username: name, password: PASSWORD });
  const headers = { 'x-auth': jwt, 'content-type': 'application/json' };
  const { secret } = JSON.parse((await expectAsk({ method: 'POST', url: `${server.base}/api/totp`, headers, body: '{}' }, 200)).body) as { secret: string };
  await awayFromStepEnd();
  const code = totpOf(secret).generate({ timestamp: Date.now() - STEP_MS });
  await expectAsk({ method: 'POST', url: `${server.base}/api/totp/confirm`, headers, body: JSON.stringify({ code }) }, 200);
  return secret;
}

/** TOTP logins (two per enrolled user: this step's code, then the next step's) interleaved with plain ones. */
async function totpFigure(server: AccountsFilemgr, users: number, log: (line: string) => void): Promise<Figure> {
  await createUser(server, { username: 'plain', password: PASSWORD });
  const secrets: string[] = [];
  for (let i = 0; i < users; i++) secrets.push(await enrolledUser(server, `totp${i}`));
  await login(server.base, { username: 'plain', password: PASSWORD });
  const plain: number[] = [];
  const withOtp: number[] = [];
  for (const offset of [0, STEP_MS]) {
    for (const [i, secret] of secrets.entries()) {
      plain.push((await login(server.base, { username: 'plain', password: PASSWORD })).ms);
      await awayFromStepEnd();
      const otp = totpOf(secret).generate({ timestamp: Date.now() + offset });
      withOtp.push((await login(server.base, { username: `totp${i}`, password: PASSWORD, otp })).ms);
    }
  }
  const [p, t] = [median(plain), median(withOtp)];
  log(`  POST /api/login, median of ${withOtp.length} each: password only ${p.toFixed(1)} ms, password + TOTP code ${t.toFixed(1)} ms (${signed(t - p)} ms)`);
  log(`    password only: ${plain.map((ms) => ms.toFixed(0)).join(' ')}`);
  log(`    with TOTP:     ${withOtp.map((ms) => ms.toFixed(0)).join(' ')}`);
  return { label: 'sign-in with a TOTP code (goal +<1 ms)', value: t, unit: 'ms', baseline: { label: 'sign-in without TOTP', value: p } };
}

async function run(log: (line: string) => void): Promise<Figure[]> {
  const requests = envNumber('BENCH_TOKEN_REQUESTS', 2000);
  const users = envNumber('BENCH_TOTP_USERS', 15);
  const root = await mkdtemp(join(tmpdir(), 'filemgr-bench-tokens-'));
  await writeFile(join(root, 'a.txt'), 'a');
  const server = await startWithAccounts(root);
  try {
    const figures = await tokenFigures(server, requests, log);
    figures.push(await totpFigure(server, users, log), await totpCheckFigure(log));
    return figures;
  } finally {
    await server.stop();
    await rm(root, { recursive: true, force: true });
  }
}

/** B3: what an API token and a TOTP code cost a request. */
export const tokensBenchmark: Benchmark = {
  name: 'tokens',
  title: 'B3 accounts (built executable): a request with an API token against a JWT; a TOTP sign-in against a plain one',
  run,
};
