import { readdir, readFile, stat } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Upload } from 'tus-js-client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { noAssets } from '../../lib/assets';
import { buildTestApp, type TestApp } from '../../../tests/support/test-app';
import { OCTET } from '../../../tests/support/tus-client';

// A real listening server: keep-alive reuse after refusals, and the real tus-js-client (the one
// the UI uses) uploading through cut connections and a server restart.

const MiB = 1024 * 1024;

let t: TestApp;
let app: FastifyInstance;
let port: number;
let connections: number;

function bytes(n: number, seed = 3): Buffer {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = (i * 131 + seed + (i >> 12)) & 0xff;
  return b;
}

async function listen(on: FastifyInstance, at = 0): Promise<number> {
  on.server.on('connection', () => connections++);
  await on.listen({ port: at, host: '127.0.0.1' });
  return (on.server.address() as AddressInfo).port;
}

beforeEach(async () => {
  connections = 0;
  t = await buildTestApp();
  app = t.app;
  port = await listen(app);
});

afterEach(async () => {
  app.server.closeAllConnections();
  await app.close();
  await t.close();
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
}

/** One request over `agent`; resolves on the response, whatever happens to the rest of the body. */
function send(agent: Agent, line: `${string} /${string}`, opts: { headers?: Record<string, string>; body?: Buffer } = {}): Promise<Answer> {
  const [method, path] = line.split(' ') as [string, string];
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path: `/api/tus${path}`, agent, headers: { 'x-auth': t.token(), ...opts.headers } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

const patchOver = (agent: Agent, path: `/${string}`, at: { offset: number; body: Buffer }) =>
  send(agent, `PATCH ${path}`, { headers: { 'content-type': OCTET, 'upload-offset': String(at.offset) }, body: at.body });

describe('a refused PATCH keeps the keep-alive connection usable', () => {
  it('answers 409 to a stale offset and takes the next chunk over the same connection', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const data = bytes(2 * MiB);
    expect((await send(agent, 'POST /movie.bin', { headers: { 'upload-length': String(2 * MiB) } })).status).toBe(201);
    expect((await patchOver(agent, '/movie.bin', { offset: 0, body: data.subarray(0, MiB) })).status).toBe(204);
    expect((await patchOver(agent, '/movie.bin', { offset: 0, body: data.subarray(0, MiB) })).status).toBe(409);
    const last = await patchOver(agent, '/movie.bin', { offset: MiB, body: data.subarray(MiB) });
    expect([last.status, last.headers['upload-offset']]).toEqual([204, String(2 * MiB)]);
    expect(connections).toBe(1);
    expect((await readFile(join(t.root, 'movie.bin'))).equals(data)).toBe(true);
    agent.destroy();
  });

  it('answers 413 to a body longer than declared and takes the right one over the same connection', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    await send(agent, 'POST /small.bin', { headers: { 'upload-length': '1024' } });
    expect((await patchOver(agent, '/small.bin', { offset: 0, body: bytes(4 * MiB) })).status).toBe(413);
    expect((await patchOver(agent, '/small.bin', { offset: 0, body: bytes(1024) })).status).toBe(204);
    expect(connections).toBe(1);
    expect((await readFile(join(t.root, 'small.bin'))).equals(bytes(1024))).toBe(true);
    agent.destroy();
  });

  it('closes the connection after a refusal whose body is over 32 MiB', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    await send(agent, 'POST /huge.bin', { headers: { 'upload-length': String(48 * MiB) } });
    const res = await patchOver(agent, '/huge.bin', { offset: 5, body: Buffer.alloc(40 * MiB) });
    expect(res.status).toBe(409);
    expect(res.headers.connection).toBe('close');
    expect((await send(agent, 'HEAD /huge.bin')).headers['upload-offset']).toBe('0');
    expect(connections).toBe(2);
    agent.destroy();
  });
});

describe('a DELETE of an upload whose PATCH has stalled', () => {
  it('ends the PATCH at once, answers 204 and leaves no temporary file', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    await send(agent, 'POST /stalled.bin', { headers: { 'upload-length': String(10 * MiB) } });
    // A client that sends 5 MiB of a 10 MiB PATCH and then nothing, without closing.
    const patch = request({ host: '127.0.0.1', port, method: 'PATCH', path: '/api/tus/stalled.bin', agent: false, headers: { 'x-auth': t.token(), 'tus-resumable': '1.0.0', 'content-type': OCTET, 'upload-offset': '0', 'content-length': String(10 * MiB) } });
    const ended = new Promise<string>((resolve) => {
      patch.on('response', (res) => resolve(String(res.statusCode))).on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'));
    });
    patch.write(bytes(5 * MiB));
    // The first 4 MiB batch on disk: the PATCH holds the upload.
    const temp = async (): Promise<string[]> => (await readdir(t.root)).filter((n) => n.startsWith('.filemgr-tmp-'));
    await eventuallyTrue(async () => (await temp()).length === 1 && (await stat(join(t.root, (await temp())[0]!))).size >= 4 * MiB);
    const deleted = await send(agent, 'DELETE /stalled.bin');
    expect(deleted.status).toBe(204);
    expect(['404', 'ECONNRESET', 'EPIPE']).toContain(await ended);
    expect(await temp()).toEqual([]);
    expect((await send(agent, 'HEAD /stalled.bin')).status).toBe(404);
    patch.destroy();
    agent.destroy();
  });
});

describe('requests beside a stalled or late PATCH', () => {
  /** A PATCH of `path` at offset 0 declaring `length` bytes, left open for the test to write to. */
  const openPatch = (path: string, length: number) => {
    const patch = request({ host: '127.0.0.1', port, method: 'PATCH', path: `/api/tus${path}`, agent: false, headers: { 'x-auth': t.token(), 'tus-resumable': '1.0.0', 'content-type': OCTET, 'upload-offset': '0', 'content-length': String(length) } });
    const answer = new Promise<Answer>((resolve, reject) => {
      patch.on('response', (res) => {
        res.resume();
        resolve({ status: res.statusCode ?? 0, headers: res.headers });
      }).on('error', reject);
    });
    return { patch, answer };
  };

  it('a HEAD answers at once with the bytes durable so far, and the PATCH then goes on', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const data = bytes(10 * MiB);
    await send(agent, 'POST /slow.bin', { headers: { 'upload-length': String(10 * MiB) } });
    const { patch, answer } = openPatch('/slow.bin', 10 * MiB);
    patch.write(data.subarray(0, 5 * MiB));
    // The first batch (the chunks up to 4 MiB or just past it) is written and durable; the rest
    // waits for more. Each HEAD is answered while the PATCH holds the upload (before, the first
    // one waited for the PATCH's stall timer).
    let offset = 0;
    await eventuallyTrue(async () => (offset = Number((await send(agent, 'HEAD /slow.bin')).headers['upload-offset'])) > 0);
    expect(offset).toBeGreaterThanOrEqual(4 * MiB);
    expect(offset).toBeLessThanOrEqual(5 * MiB);
    patch.end(data.subarray(5 * MiB));
    const done = await answer;
    expect([done.status, done.headers['upload-offset']]).toEqual([204, String(10 * MiB)]);
    expect((await readFile(join(t.root, 'slow.bin'))).equals(data)).toBe(true);
    agent.destroy();
  });

  it('a PATCH of an upload deleted meanwhile is refused at once, without waiting for its body', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    await send(agent, 'POST /gone.bin', { headers: { 'upload-length': String(10 * MiB) } });
    expect((await send(agent, 'DELETE /gone.bin')).status).toBe(204);
    const { patch, answer } = openPatch('/gone.bin', 10 * MiB);
    // 1 MiB of the declared 10 and then nothing: the answer must not wait for the other 9.
    patch.write(bytes(MiB));
    const refused = await answer;
    expect([refused.status, refused.headers.connection]).toEqual([404, 'close']);
    expect(await readdir(t.root)).toEqual([]);
    patch.destroy();
    agent.destroy();
  });
});

/** Polls `check` until it holds (the test's timeout ends a wait that never does). */
async function eventuallyTrue(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((r) => setTimeout(r, 20));
}

interface ClientRun {
  methods: string[];
}

/** Uploads `data` with tus-js-client as the UI configures it (one upload at a time, no fingerprint). */
function tusClient(data: Buffer, opts: { name: string; chunkSize: number; onChunk?: (sent: number) => void; port?: number }): Promise<ClientRun> {
  const run: ClientRun = { methods: [] };
  return new Promise((resolve, reject) => {
    const upload = new Upload(data, {
      endpoint: `http://127.0.0.1:${opts.port ?? port}/api/tus/${opts.name}?override=false`,
      chunkSize: opts.chunkSize,
      parallelUploads: 1,
      storeFingerprintForResuming: false,
      headers: { 'X-Auth': t.token() },
      retryDelays: [0, 100, 200, 400, 800, 1600, 3200],
      onBeforeRequest: (req) => void run.methods.push(req.getMethod()),
      onChunkComplete: (_size, sent) => opts.onChunk?.(sent),
      onSuccess: () => resolve(run),
      onError: reject,
    });
    upload.start();
  });
}

/** A TCP relay to the server that cuts the first connection after `cutAfter` bytes from the client. */
async function cuttingRelay(cutAfter: number): Promise<{ port: number; cuts: () => number; close: () => Promise<void> }> {
  let cuts = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(port, '127.0.0.1');
    sockets.add(client).add(upstream);
    let seen = 0;
    client.on('data', (chunk: Buffer) => {
      seen += chunk.length;
      if (cuts === 0 && seen > cutAfter) {
        cuts++;
        client.destroy();
        upstream.destroy();
        return;
      }
      upstream.write(chunk);
    });
    upstream.pipe(client);
    for (const s of [client, upstream]) s.on('error', () => undefined).on('close', () => (client.destroy(), upstream.destroy()));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    cuts: () => cuts,
    close: () => new Promise((r) => (sockets.forEach((s) => s.destroy()), server.close(() => r()))),
  };
}

describe('tus-js-client', () => {
  it('uploads a file in chunks', async () => {
    const data = bytes(MiB + 12345);
    const run = await tusClient(data, { name: 'client.bin', chunkSize: 256 * 1024 });
    expect(run.methods.filter((m) => m === 'PATCH')).toHaveLength(5);
    expect((await readFile(join(t.root, 'client.bin'))).equals(data)).toBe(true);
    expect(await readdir(t.root)).toEqual(['client.bin']);
  });

  it('resumes after the connection is cut halfway through a chunk', async () => {
    const data = bytes(2 * MiB);
    const relay = await cuttingRelay(MiB + 100_000);
    const run = await tusClient(data, { name: 'cut.bin', chunkSize: 512 * 1024, port: relay.port });
    await relay.close();
    expect(relay.cuts()).toBe(1);
    expect(run.methods).toContain('HEAD');
    expect((await readFile(join(t.root, 'cut.bin'))).equals(data)).toBe(true);
    expect(await readdir(t.root)).toEqual(['cut.bin']);
  });

  it('resumes after the server restarts on the same root', async () => {
    const data = bytes(3 * MiB);
    let restarted: Promise<void> | undefined;
    const restart = async (): Promise<void> => {
      app.server.closeAllConnections();
      await app.close();
      app = await buildApp({ store: t.store, config: t.config, assets: noAssets(), logger: false });
      await listen(app, port);
    };
    const run = await tusClient(data, {
      name: 'restart.bin',
      chunkSize: 256 * 1024,
      onChunk: (sent) => {
        if (sent >= MiB && !restarted) restarted = restart();
      },
    });
    expect(restarted).toBeDefined();
    await restarted;
    expect(run.methods).toContain('HEAD');
    expect((await readFile(join(t.root, 'restart.bin'))).equals(data)).toBe(true);
    expect(await readdir(t.root)).toEqual(['restart.bin']);
  });
});
