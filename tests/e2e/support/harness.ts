import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { writeTree, type Tree } from '../../support/tree';

/**
 * The built single executable (`npm run build`); FILEMGR_E2E_EXECUTABLE names another copy, so
 * tests can run against a snapshot while dist/ is being rebuilt.
 */
export const EXECUTABLE = process.env.FILEMGR_E2E_EXECUTABLE ?? fileURLToPath(new URL('../../../dist/filemgr', import.meta.url));
/** Where screenshots are kept (gitignored). */
export const SCREENSHOTS = fileURLToPath(new URL('../screenshots', import.meta.url));

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd: string;
  /** The whole environment: nothing is inherited (like `env -i`). */
  env: Record<string, string>;
  timeoutMs?: number;
}

/** Fails with a clear message when the executable has not been built. */
export function requireExecutable(): string {
  if (!existsSync(EXECUTABLE)) throw new Error(`${EXECUTABLE} is missing: run npm run build first`);
  return EXECUTABLE;
}

/** Runs the executable to completion (killed after the timeout) and collects its output. */
export function runExecutable(args: string[], opts: RunOptions): Promise<RunResult> {
  const child = spawn(requireExecutable(), args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] });
  const out = collect(child);
  const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 20_000);
  return new Promise((resolvePromise, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout: out.stdout(), stderr: out.stderr() });
    });
  });
}

function collect(child: ChildProcess): { stdout: () => string; stderr: () => string } {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  return { stdout: () => stdout, stderr: () => stderr };
}

/** A fresh temp directory: a root to serve, a database path and an empty HOME. */
export interface Sandbox {
  dir: string;
  root: string;
  database: string;
  home: string;
  remove: () => Promise<void>;
}

/** Creates a sandbox; `tree` is written into the served root. */
export async function makeSandbox(tree: Tree = {}): Promise<Sandbox> {
  const dir = await mkdtemp(join(tmpdir(), 'filemgr-e2e-'));
  const sandbox = { dir, root: join(dir, 'root'), database: join(dir, 'db', 'filemgr.json'), home: join(dir, 'home') };
  await Promise.all([mkdir(sandbox.root), mkdir(sandbox.home)]);
  await writeTree(sandbox.root, tree);
  return { ...sandbox, remove: () => rm(dir, { recursive: true, force: true }) };
}

export interface ServerHandle {
  url: string;
  sandbox: Sandbox;
  username: string;
  /** The server's process id (its memory is read from /proc/<pid>/status). */
  pid: number;
  /** The first-run password: stdout is a pipe, so the server wrote it beside the database. */
  password: string;
  stdout: () => string;
  stderr: () => string;
  /** SIGTERM, then the exit code (SIGKILL after 15 s, null). */
  stop: () => Promise<number | null>;
}

export interface StartOptions {
  tree?: Tree;
  /** Extra command-line flags. */
  args?: string[];
  /** Reuse a sandbox (and its database) instead of making a new one. */
  sandbox?: Sandbox;
}

function waitFor<T>(probe: () => T | undefined, what: string, child: ChildProcess): Promise<T> {
  return new Promise((resolvePromise, reject) => {
    const deadline = Date.now() + 20_000;
    const tick = () => {
      const value = probe();
      if (value !== undefined) return resolvePromise(value);
      if (child.exitCode !== null || Date.now() > deadline) return reject(new Error(`${what} did not happen (exit ${child.exitCode})`));
      setTimeout(tick, 20);
    };
    tick();
  });
}

async function untilHealthy(url: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const ok = await fetch(`${url}/health`).then((r) => r.status === 200, () => false);
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`${url}/health never answered 200`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Each thread of a process that outlived its grace period: name, state and kernel wait (Linux /proc). */
function threadStates(pid: number | undefined): string {
  try {
    return readdirSync(`/proc/${pid}/task`).map((tid) => {
      const at = (file: string): string => readFileSync(`/proc/${pid}/task/${tid}/${file}`, 'utf8').trim();
      return `${tid} ${at('comm')} ${at('stat').replace(/^.*\) /, '').split(' ')[0]} ${at('wchan')}`;
    }).join('; ');
  } catch (err) {
    return `unreadable (${(err as Error).message})`;
  }
}

function stopper(child: ChildProcess): () => Promise<number | null> {
  return () => new Promise((resolvePromise) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      // A server that died on its own (a crash) is reported apart from one that would not stop.
      if (child.exitCode === null) console.error(`the server had already died of ${child.signalCode} before it was stopped`);
      return resolvePromise(child.exitCode);
    }
    const asked = Date.now();
    let threads = '';
    // The server finishes requests in flight for up to 10 s, then cuts them and exits 0 (api.md
    // §12): only a server that outlives that is killed, and its null exit code fails the test.
    const kill = setTimeout(() => {
      threads = threadStates(child.pid);
      child.kill('SIGKILL');
    }, 15_000);
    child.once('exit', (code, signal) => {
      clearTimeout(kill);
      if (code !== 0) console.error(`the server exited with ${code ?? signal} ${Date.now() - asked} ms after SIGTERM${threads ? `; its threads then: ${threads}` : ''}`);
      resolvePromise(code);
    });
    child.kill('SIGTERM');
  });
}

/**
 * Starts the built executable on a free port (`--port 0`, the address read from its log) with a
 * temp root, database and HOME and nothing else in its environment; resolves once /health
 * answers 200. On first run it reads the admin password the server wrote to
 * `<database>.admin-password` (stdout is not a terminal); '' when there is none.
 */
export async function startServer(opts: StartOptions = {}): Promise<ServerHandle> {
  const sandbox = opts.sandbox ?? (await makeSandbox(opts.tree));
  const args = ['--port', '0', '--root', sandbox.root, '--database', sandbox.database, ...(opts.args ?? [])];
  const child = spawn(requireExecutable(), args, { cwd: sandbox.home, env: { HOME: sandbox.home }, stdio: ['ignore', 'pipe', 'pipe'] });
  const out = collect(child);
  const stop = stopper(child);
  try {
    const url = await waitFor(() => /listening on (https?:\/\/[^\s"]+)/.exec(out.stdout())?.[1], 'listening', child);
    await untilHealthy(url);
    const passwordFile = `${sandbox.database}.admin-password`;
    const password = existsSync(passwordFile) ? readFileSync(passwordFile, 'utf8').trim() : '';
    return { url, sandbox, username: 'admin', pid: child.pid ?? 0, password, stdout: out.stdout, stderr: out.stderr, stop };
  } catch (err) {
    await stop();
    throw new Error(`${(err as Error).message}\nstdout: ${out.stdout()}\nstderr: ${out.stderr()}`);
  }
}

export interface BrowserHandle {
  context: BrowserContext;
  page: Page;
  close: () => Promise<void>;
}

/** Debian's Chromium through playwright-core, headless, with a fresh profile. */
export async function launchBrowser(): Promise<BrowserHandle> {
  const profile = await mkdtemp(join(tmpdir(), 'filemgr-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1280, height: 800 },
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** Saves a full-page PNG as tests/e2e/screenshots/<name>.png and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** Closes the browser, stops the server (which must exit 0) and removes its sandbox: every afterAll. */
export async function shutDown(browser: BrowserHandle | undefined, server: ServerHandle | undefined): Promise<void> {
  await browser?.close();
  const code = await server?.stop();
  await server?.sandbox.remove();
  if (server && code !== 0) throw new Error(`the server exited with ${code}\nstderr: ${server.stderr()}\nlast of stdout: ${server.stdout().slice(-3000)}`);
}
