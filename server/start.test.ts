import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, stat, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { connect as connectTcp, createServer, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { ListenError, listen, loadTlsFiles, shutdown } from './start';

const apps: FastifyInstance[] = [];

afterEach(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()));
});

/** An app with a route that answers after `ms`, to have a request in flight. */
async function slowApp(https?: { cert: Buffer; key: Buffer }): Promise<FastifyInstance> {
  const app = Fastify({ return503OnClosing: true, ...(https ? { https } : {}) });
  app.get('/slow', async (req) => {
    const ms = Number((req.query as { ms?: string }).ms ?? '300');
    await new Promise((r) => setTimeout(r, ms));
    return 'done';
  });
  app.get('/fast', () => Promise.resolve('fast'));
  await app.ready();
  apps.push(app);
  return app;
}

function get(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    // A new connection each time: a kept-alive one would hide whether the server still accepts.
    request(url, { agent: false }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', reject);
    }).on('error', reject).end();
  });
}

async function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'filemgr-start-'));
}

describe('listen', () => {
  it('listens on the address and port and answers with the URL', async () => {
    const app = await slowApp();
    const url = await listen(app, { kind: 'tcp', address: '127.0.0.1', port: 0, tls: false });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await get(`${url}/fast`)).body).toBe('fast');
  });

  it.each([
    ['127.0.0.1', 'port {port} on 127.0.0.1 is already in use'],
    ['', 'port {port} on every interface is already in use'],
  ])('explains a port in use on "%s"', async (address, message) => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, r));
    const port = (blocker.address() as { port: number }).port;
    try {
      const app = await slowApp();
      const err = await listen(app, { kind: 'tcp', address, port, tls: false }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ListenError);
      expect((err as Error).message).toBe(message.replace('{port}', String(port)));
    } finally {
      blocker.close();
    }
  });

  it('refuses an address that is not this machine\'s', async () => {
    const app = await slowApp();
    await expect(listen(app, { kind: 'tcp', address: '192.0.2.1', port: 0, tls: false })).rejects.toThrow('address 192.0.2.1 is not an address of this machine');
  });

  it('listens on a unix socket with the given mode, and removes a stale socket file first', async () => {
    const dir = await tempDir();
    const path = join(dir, 'fm.sock');
    // A process killed while listening leaves its socket file behind.
    const script = `require('net').createServer().listen(${JSON.stringify(path)}, () => process.kill(process.pid, 'SIGKILL'))`;
    expect(() => execFileSync(process.execPath, ['-e', script], { stdio: 'ignore' })).toThrow();
    expect(existsSync(path)).toBe(true);
    const app = await slowApp();
    expect(await listen(app, { kind: 'socket', path, perm: 0o660 })).toBe(path);
    expect((await stat(path)).mode & 0o777).toBe(0o660);
  });

  it('refuses a socket another process is serving', async () => {
    const dir = await tempDir();
    const path = join(dir, 'busy.sock');
    const live = createServer();
    await new Promise<void>((r) => live.listen(path, r));
    try {
      const app = await slowApp();
      await expect(listen(app, { kind: 'socket', path, perm: 0o666 })).rejects.toThrow(`the socket ${path} is already in use`);
    } finally {
      live.close();
    }
  });
});

describe('loadTlsFiles', () => {
  it('reads a certificate and key that belong together', async () => {
    const tls = await selfSigned();
    expect(tls.cert.toString()).toContain('BEGIN CERTIFICATE');
  });

  it.each([
    { name: 'an unreadable key', cert: 'cert', key: null, message: /^cannot read the TLS key \S+k\.pem: ENOENT$/ },
    { name: 'garbage', cert: 'garbage', key: 'garbage', message: /^the TLS certificate \S+ and key \S+ are not a usable pair \(.+\)$/ },
  ])('explains $name in one line', async ({ cert, key, message }) => {
    const dir = await tempDir();
    await writeFile(join(dir, 'c.pem'), cert);
    if (key !== null) await writeFile(join(dir, 'k.pem'), key);
    const err = await loadTlsFiles(join(dir, 'c.pem'), join(dir, 'k.pem')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ListenError);
    expect((err as Error).message).toMatch(message);
    expect((err as Error).message).not.toContain('\n');
  });
});

describe('shutdown', () => {
  it('lets a request in flight finish, then stops accepting', async () => {
    const app = await slowApp();
    const url = await listen(app, { kind: 'tcp', address: '127.0.0.1', port: 0, tls: false });
    const inFlight = get(`${url}/slow?ms=400`);
    await new Promise((r) => setTimeout(r, 100));
    const started = Date.now();
    const finished = await shutdown(app, 5000);
    expect(finished).toBe(true);
    expect(await inFlight).toEqual({ status: 200, body: 'done' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    await expect(get(`${url}/fast`)).rejects.toThrow(/ECONNREFUSED/);
  });

  it('cuts requests still running after the grace period', async () => {
    const app = await slowApp();
    const url = await listen(app, { kind: 'tcp', address: '127.0.0.1', port: 0, tls: false });
    const stuck = get(`${url}/slow?ms=5000`).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 100));
    const started = Date.now();
    expect(await shutdown(app, 300)).toBe(false);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(await stuck).toBeInstanceOf(Error);
  });

  // A browser opens a connection ahead of a request it is about to send (Chromium does when a
  // request waits): Node counts it as a request whose headers are still to come.
  it('does not wait for a connection that has not sent a request', async () => {
    const app = await slowApp();
    const url = new URL(await listen(app, { kind: 'tcp', address: '127.0.0.1', port: 0, tls: false }));
    const silent = await opened(connectTcp(Number(url.port), url.hostname), 'connect');
    expect(await shutdown(app, 3000)).toBe(true);
    expect(silent.destroyed || (await closed(silent))).toBe(true);
  });

  it('does not wait for a TLS connection that has only shaken hands', async () => {
    const https = await selfSigned();
    const app = await slowApp(https);
    const url = new URL(await listen(app, { kind: 'tcp', address: '127.0.0.1', port: 0, tls: true }));
    const silent = await opened(connectTls({ port: Number(url.port), host: url.hostname, rejectUnauthorized: false }), 'secureConnect');
    expect(await shutdown(app, 3000)).toBe(true);
    expect(silent.destroyed || (await closed(silent))).toBe(true);
  });
});

function opened<T extends Socket>(socket: T, event: 'connect' | 'secureConnect'): Promise<T> {
  return new Promise((resolve, reject) => socket.once(event, () => resolve(socket)).once('error', reject));
}

function closed(socket: Socket): Promise<boolean> {
  return new Promise((resolve) => socket.once('close', () => resolve(true)));
}

async function selfSigned(): Promise<{ cert: Buffer; key: Buffer }> {
  const dir = await tempDir();
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', join(dir, 'k.pem'), '-out', join(dir, 'c.pem'), '-days', '1', '-subj', '/CN=localhost'], { stdio: 'ignore' });
  return loadTlsFiles(join(dir, 'c.pem'), join(dir, 'k.pem'));
}
