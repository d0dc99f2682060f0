import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import bcrypt from 'bcryptjs';
import { freePort } from '../../build/free-port';
import { startPostgres, type TestPostgres } from './postgres';
import { writeTree, type Tree } from './tree';

/**
 * Several instances of the built executable (beyond.md §10) as an operator would run them: one
 * PostgreSQL (tests/support/postgres.ts) holding the state, three `dist/filemgr` processes on free
 * ports sharing one --root and `--database postgres://…`, and Debian's nginx in front of them as
 * a round-robin upstream with no stickiness. Everything lives in one temporary folder and is
 * stopped by `stop()` (and, should the test process die, by an exit hook): nothing is left running.
 */
export interface ClusterNode {
  /** `http://127.0.0.1:<port>`: this node alone, past nginx. */
  url: string;
  pid: number;
  /** Sends a signal (SIGKILL for a crash); resolves once the process is gone. */
  kill(signal: NodeJS.Signals): Promise<void>;
  alive(): boolean;
  stdout(): string;
  stderr(): string;
}

export interface Cluster {
  /** nginx: every request goes to the next node in turn. */
  url: string;
  nodes: ClusterNode[];
  /** The shared root every node serves. */
  root: string;
  username: string;
  /** The admin's clear-text password (set at the first start). */
  password: string;
  postgres: TestPostgres;
  /** Stops nginx, the nodes and PostgreSQL, and removes the folder. */
  stop(): Promise<void>;
}

export interface ClusterOptions {
  nodes?: number;
  /** Files written into the shared root before the first start. */
  tree?: Tree;
}

const EXECUTABLE = process.env.FILEMGR_E2E_EXECUTABLE ?? fileURLToPath(new URL('../../dist/filemgr', import.meta.url));
const children = new Set<ChildProcess>();
let exitHook = false;

/** Starts PostgreSQL, the nodes (the first one creates the state) and nginx. */
export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  if (!existsSync(EXECUTABLE)) throw new Error(`${EXECUTABLE} is missing: run npm run build first`);
  installExitHook();
  const dir = await mkdtemp(join(tmpdir(), 'filemgr-cluster-'));
  const root = join(dir, 'root');
  await mkdir(root);
  await writeTree(root, options.tree ?? {});
  const started: ClusterNode[] = [];
  let postgres: TestPostgres | undefined;
  let nginx: ChildProcess | undefined;
  const stop = async (): Promise<void> => {
    if (nginx) await ended(nginx, 'SIGTERM');
    await Promise.all(started.map((n) => n.kill('SIGTERM')));
    await postgres?.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    postgres = await startPostgres();
    const password = randomBytes(12).toString('base64url');
    const env = { HOME: dir, FILEMGR_DATABASE: await postgres.newDatabase() };
    // The first node creates the state (the admin with this password); the others find it there.
    started.push(await startNode({ dir, root, env, index: 0, first: ['--password', bcrypt.hashSync(password, 4)] }));
    for (let i = 1; i < (options.nodes ?? 3); i++) started.push(await startNode({ dir, root, env, index: i, first: [] }));
    const proxy = await startNginx(dir, started);
    nginx = proxy.child;
    return { url: proxy.url, nodes: started, root, username: 'admin', password, postgres, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

interface NodeSpec {
  dir: string;
  root: string;
  /** The whole environment: the database URL (with its password) travels here, not in argv. */
  env: Record<string, string>;
  index: number;
  /** Flags of the first start only. */
  first: string[];
}

async function startNode(spec: NodeSpec): Promise<ClusterNode> {
  const home = join(spec.dir, `node${spec.index}`);
  await mkdir(home);
  const args = ['--port', '0', '--root', spec.root, '--indexInterval', '0', '--logFormat', 'text', ...spec.first];
  const child = spawn(EXECUTABLE, args, { cwd: home, env: { ...spec.env, HOME: home }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  child.once('exit', () => children.delete(child));
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const url = await until(() => /listening on (http:\/\/[^\s"]+)/.exec(stdout)?.[1], () => `node ${spec.index} did not start (exit ${child.exitCode ?? child.signalCode})\n${stdout}\n${stderr}`, child);
  await until(async () => ((await fetch(`${url}/health`).then((r) => r.ok, () => false)) ? true : undefined), () => `node ${spec.index}: /health never answered`, child);
  return {
    url,
    pid: child.pid ?? 0,
    kill: (signal) => ended(child, signal),
    alive: () => child.exitCode === null && child.signalCode === null,
    stdout: () => stdout,
    stderr: () => stderr,
  };
}

/** Polls `probe` until it gives a value (20 s at most, or until the process exits). */
async function until<T>(probe: () => T | undefined | Promise<T | undefined>, failure: () => string, child: ChildProcess): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) throw new Error(failure());
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Signals a process and waits for its exit (SIGKILL after 15 s). */
function ended(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill(signal);
  });
}

/** nginx's configuration: round robin over the nodes, no stickiness, bodies streamed both ways. */
function nginxConfig(dir: string, port: number, nodes: ClusterNode[]): string {
  const servers = nodes.map((n) => `    server ${new URL(n.url).host};`).join('\n');
  return `# filemgr cluster test (tests/support/cluster.ts)
${process.getuid?.() === 0 ? 'user root;' : ''}
daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/nginx-error.log warn;
events { worker_connections 512; }
http {
  access_log off;
  client_body_temp_path ${dir}/nginx-body;
  proxy_temp_path ${dir}/nginx-proxy;
  fastcgi_temp_path ${dir}/nginx-fastcgi;
  uwsgi_temp_path ${dir}/nginx-uwsgi;
  scgi_temp_path ${dir}/nginx-scgi;
  upstream filemgr {
${servers}
  }
  server {
    listen 127.0.0.1:${port};
    client_max_body_size 0;
    location / {
      proxy_pass http://filemgr;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_request_buffering off;
      proxy_buffering off;
    }
  }
}
`;
}

async function startNginx(dir: string, nodes: ClusterNode[]): Promise<{ url: string; child: ChildProcess }> {
  const nginx = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => existsSync(p));
  if (!nginx) throw new Error('nginx is not installed: run bash scripts/install-test-deps.sh');
  let lastError = '';
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const conf = join(dir, 'nginx.conf');
    await writeFile(conf, nginxConfig(dir, port, nodes));
    const child = spawn(nginx, ['-p', dir, '-c', conf, '-e', join(dir, 'nginx-error.log')], { stdio: ['ignore', 'ignore', 'pipe'] });
    children.add(child);
    child.once('exit', () => children.delete(child));
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const url = `http://127.0.0.1:${port}`;
    try {
      await until(async () => ((await fetch(`${url}/health`).then((r) => r.ok, () => false)) ? true : undefined), () => `nginx did not start: ${stderr}`, child);
      return { url, child };
    } catch (error) {
      lastError = (error as Error).message;
      await ended(child, 'SIGTERM');
    }
  }
  throw new Error(lastError);
}

/** A test process that ends without stop() (a crash, a timeout) still leaves nothing running. */
function installExitHook(): void {
  if (exitHook) return;
  exitHook = true;
  process.once('exit', () => {
    for (const child of children) child.kill('SIGKILL');
  });
}
