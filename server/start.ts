import { chmod, lstat, readFile, unlink } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { closeSilentConnections, trackConnections } from './silent-connections';

/** Where the server listens: a TCP address and port, or a unix socket. */
export type ListenTarget =
  | { kind: 'tcp'; address: string; port: number; tls: boolean }
  | { kind: 'socket'; path: string; perm: number };

/** The server could not start listening; the message is one line an admin can act on. */
export class ListenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ListenError';
  }
}

/** Header read timeout (api.md §12): a client that never finishes its headers is dropped. */
const HEADERS_TIMEOUT_MS = 60_000;

async function readPem(path: string, what: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (err) {
    throw new ListenError(`cannot read the TLS ${what} ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
}

/** Reads and checks a TLS certificate and key (PEM), so a bad pair fails before listening. */
export async function loadTlsFiles(certPath: string, keyPath: string): Promise<{ cert: Buffer; key: Buffer }> {
  const cert = await readPem(certPath, 'certificate');
  const key = await readPem(keyPath, 'key');
  // node:tls only when serving https: loading it (and OpenSSL's TLS side) costs every start.
  const { createSecureContext } = await import('node:tls');
  try {
    createSecureContext({ cert, key, minVersion: 'TLSv1.2' });
  } catch (err) {
    const reason = (err as Error).message.replace(/^error:[0-9A-F]+:/, '');
    throw new ListenError(`the TLS certificate ${certPath} and key ${keyPath} are not a usable pair (${reason})`);
  }
  return { cert, key };
}

function describeTcp(target: Extract<ListenTarget, { kind: 'tcp' }>, code: string | undefined): string {
  const where = target.address === '' ? 'every interface' : target.address;
  switch (code) {
    case 'EADDRINUSE': return `port ${target.port} on ${where} is already in use`;
    case 'EACCES': return `no permission to listen on port ${target.port} of ${where} (ports below 1024 need privileges)`;
    case 'EADDRNOTAVAIL': return `address ${target.address} is not an address of this machine`;
    case 'ENOTFOUND': case 'EAI_AGAIN': return `cannot resolve the address ${target.address}`;
    default: return `cannot listen on ${where} port ${target.port}: ${code ?? 'unknown error'}`;
  }
}

function rawListen(app: FastifyInstance, options: { port?: number; host?: string; path?: string }): Promise<void> {
  return new Promise((resolve, reject) => {
    const server = app.server;
    const onError = (err: Error): void => {
      server.off('listening', onListening);
      reject(err);
    };
    const onListening = (): void => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(options);
  });
}

/** True when `path` is a socket file nobody answers on (left by a process that died). */
async function isStaleSocket(path: string): Promise<boolean> {
  try {
    if (!(await lstat(path)).isSocket()) return false;
  } catch {
    return false;
  }
  return new Promise((resolve) => {
    const probe = connect(path);
    probe.once('connect', () => {
      probe.destroy();
      resolve(false);
    });
    probe.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
  });
}

async function listenSocket(app: FastifyInstance, target: Extract<ListenTarget, { kind: 'socket' }>): Promise<string> {
  try {
    await rawListen(app, { path: target.path });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EADDRINUSE' || !(await isStaleSocket(target.path))) {
      throw new ListenError(code === 'EADDRINUSE' ? `the socket ${target.path} is already in use` : `cannot listen on the socket ${target.path}: ${code ?? String(err)}`);
    }
    await unlink(target.path);
    await rawListen(app, { path: target.path });
  }
  await chmod(target.path, target.perm);
  return target.path;
}

function urlOf(app: FastifyInstance, tls: boolean): string {
  const info = app.server.address() as AddressInfo;
  const host = info.family === 'IPv6' ? `[${info.address}]` : info.address;
  return `${tls ? 'https' : 'http'}://${host}:${info.port}`;
}

/**
 * Starts accepting connections on an app that is ready (buildApp has run). Returns where it
 * listens: a URL, or the socket path. Failures are ListenErrors with one clear line.
 */
export async function listen(app: FastifyInstance, target: ListenTarget): Promise<string> {
  app.server.headersTimeout = HEADERS_TIMEOUT_MS;
  trackConnections(app.server);
  if (target.kind === 'socket') return listenSocket(app, target);
  try {
    // An empty address means every interface, as Go's net.Listen(":8080") does.
    await rawListen(app, { port: target.port, ...(target.address === '' ? {} : { host: target.address }) });
  } catch (err) {
    throw new ListenError(describeTcp(target, (err as NodeJS.ErrnoException).code));
  }
  return urlOf(app, target.tls);
}

/**
 * Graceful shutdown: stops accepting, lets requests in flight finish, and after `graceMs`
 * (10 s, api.md §12) closes whatever is still open. Resolves true when everything finished in
 * time.
 */
export async function shutdown(app: FastifyInstance, graceMs = 10_000): Promise<boolean> {
  let finished = true;
  const timer = setTimeout(() => {
    finished = false;
    app.server.closeAllConnections();
  }, graceMs);
  // server.close() only drops the connections idle at that moment; a keep-alive connection
  // whose request finishes later would hold the close until its keep-alive timeout, and one that
  // never sent a request until the grace period ends.
  const sweep = (): void => {
    app.server.closeIdleConnections();
    closeSilentConnections(app.server);
  };
  const sweeper = setInterval(sweep, 50);
  try {
    // Upgraded connections (WebSockets) are not HTTP connections closeAllConnections knows
    // about; their plugin closes them on close, and one more second bounds the wait.
    await Promise.race([app.close(), new Promise((r) => setTimeout(r, graceMs + 1000).unref())]);
  } finally {
    clearTimeout(timer);
    clearInterval(sweeper);
  }
  return finished;
}
