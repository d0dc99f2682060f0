// The client side of the WebDAV benchmark: the built executable signed in with a real password
// (WebDAV speaks Basic auth, so not --noauth), and requests whose bodies are read to nowhere.
import { readFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { request, type Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { freePort, startUntil200, stop } from './measure';

const EXECUTABLE = process.env.BENCH_FILEMGR ?? fileURLToPath(new URL('../../dist/filemgr', import.meta.url));

/** A filemgr process with its admin's Basic credentials and API token. */
export interface DavServer {
  port: number;
  pid: number;
  authorization: string;
  token: string;
  stop(): Promise<void>;
}

export interface Answer {
  status: number;
  bytes: number;
  ms: number;
}

export interface Call {
  method: string;
  path: string;
  headers?: Record<string, string>;
  /** `total` bytes of `source` repeated; chunked unless `length` says to send Content-Length. */
  body?: { source: Buffer; total: number; length?: boolean };
  agent?: Agent;
}

/** Starts dist/filemgr on `root` (first run: admin with a generated password) and signs in. */
export async function startDavServer(root: string): Promise<DavServer> {
  const state = await mkdtemp(join(tmpdir(), 'filemgr-bench-dav-state-'));
  await mkdir(join(state, 'home'));
  const port = await freePort();
  const database = join(state, 'filemgr.json');
  const args = ['--port', String(port), '--root', root, '--database', database];
  const run = await startUntil200(EXECUTABLE, args, { url: `http://127.0.0.1:${port}/health`, env: { HOME: join(state, 'home') }, cwd: state });
  const password = (await readFile(`${database}.admin-password`, 'utf8')).trim();
  const server: DavServer = {
    port,
    pid: run.child.pid ?? 0,
    authorization: `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`,
    token: '',
    async stop() {
      await stop(run.child);
      await rm(state, { recursive: true, force: true });
    },
  };
  const credentials = Buffer.from(JSON.stringify({ username: 'admin', password, recaptcha: '' }));
  const login = await send(server, { method: 'POST', path: '/api/login', headers: { 'content-type': 'application/json' }, body: { source: credentials, total: credentials.length, length: true } }, true);
  if (login.status !== 200) throw new Error(`login answered ${login.status}`);
  server.token = login.text;
  return server;
}

/** Writes `total` bytes of `source` (repeated) into a request, honouring backpressure. */
async function writeBody(req: ReturnType<typeof request>, source: Buffer, total: number): Promise<void> {
  for (let done = 0; done < total; ) {
    const at = done % source.length;
    const piece = source.subarray(at, Math.min(source.length, at + total - done));
    done += piece.length;
    if (!req.write(piece)) await new Promise((r) => req.once('drain', r));
  }
  req.end();
}

function send(server: DavServer, c: Call, keepText: boolean): Promise<Answer & { text: string }> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...c.headers };
    if (c.body?.length) headers['content-length'] = String(c.body.total);
    const req = request({ host: '127.0.0.1', port: server.port, method: c.method, path: c.path, headers, agent: c.agent ?? false }, (res) => {
      let bytes = 0;
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (keepText) chunks.push(chunk);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, ms: performance.now() - start, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (c.body) writeBody(req, c.body.source, c.body.total).catch(reject);
    else req.end();
  });
}

/** A WebDAV request with the admin's Basic credentials; the answer's body is counted and dropped. */
export function davCall(server: DavServer, c: Call): Promise<Answer> {
  return send(server, { ...c, headers: { authorization: server.authorization, ...c.headers } }, false);
}

/** An API request with the admin's token; the answer's body is counted and dropped. */
export function apiCall(server: DavServer, c: Call): Promise<Answer> {
  return send(server, { ...c, headers: { 'x-auth': server.token, ...c.headers } }, false);
}

/** Peak resident set size of a process so far (VmHWM), in bytes. */
export async function peakRssOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = /^VmHWM:\s+(\d+) kB$/m.exec(status)?.[1];
  if (!kb) throw new Error(`no VmHWM for process ${pid}`);
  return Number(kb) * 1024;
}
