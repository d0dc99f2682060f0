import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HttpError, configureHttp, fetchJson, fetchText, jsonBody, request } from './http';

interface Seen { url: string; method: string; auth: string | undefined; body: string }

let server: Server;
let origin = '';
const seen: Seen[] = [];
let events: string[] = [];
let token = '';

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

beforeAll(async () => {
  server = createServer((req, res) => {
    void readBody(req).then((body) => {
      seen.push({ url: req.url ?? '', method: req.method ?? '', auth: req.headers['x-auth'] as string | undefined, body });
      const [status, headers, text] = routes[req.url ?? ''] ?? [404, {}, '404 Not Found\n'];
      res.writeHead(status, headers).end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const routes: Record<string, [number, Record<string, string>, string]> = {
  '/fb/api/ok': [200, { 'Content-Type': 'text/plain' }, 'hello'],
  '/fb/api/json': [200, { 'Content-Type': 'application/json' }, '{"total":10,"used":4}'],
  '/fb/api/renew-me': [200, { 'X-Renew-Token': 'true' }, 'fine'],
  '/fb/api/forbidden': [403, {}, '403 Forbidden\n'],
  '/fb/api/gone': [401, {}, '401 Unauthorized\n'],
};

beforeEach(() => {
  seen.length = 0;
  events = [];
  token = 'a.b.c';
  configureHttp({
    baseURL: `${origin}/fb`,
    token: () => token,
    onUnauthorized: () => events.push('unauthorized'),
    onRenewRequested: () => events.push('renew'),
  });
});

describe('request', () => {
  it('prefixes the base URL and sends the token in X-Auth', async () => {
    expect(await fetchText('/api/ok')).toBe('hello');
    expect(seen[0]).toMatchObject({ url: '/fb/api/ok', method: 'GET', auth: 'a.b.c' });
  });

  it('sends no X-Auth header when signed out', async () => {
    token = '';
    await fetchText('/api/ok');
    expect(seen[0]?.auth).toBeUndefined();
  });

  it('parses JSON answers and posts JSON bodies', async () => {
    expect(await fetchJson<{ total: number }>('/api/json', jsonBody({ a: 1 }, 'PUT'))).toEqual({ total: 10, used: 4 });
    expect(seen[0]).toMatchObject({ method: 'PUT', body: '{"a":1}' });
  });

  it('asks for a renewal when the answer carries X-Renew-Token: true', async () => {
    await request('/api/renew-me');
    expect(events).toEqual(['renew']);
  });

  it('throws an HttpError with status and body for a non-2xx answer', async () => {
    const error = await request('/api/forbidden').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 403, body: '403 Forbidden\n', message: '403 Forbidden' });
    expect(events).toEqual([]);
  });

  it('ends the session on a 401 to a signed-in call', async () => {
    await expect(request('/api/gone')).rejects.toMatchObject({ status: 401 });
    expect(events).toEqual(['unauthorized']);
  });

  it('does not end anything on a 401 to a call without a token', async () => {
    token = '';
    await expect(request('/api/gone')).rejects.toMatchObject({ status: 401 });
    expect(events).toEqual([]);
  });

  it("reports status 0 '000 No connection' when the server cannot be reached", async () => {
    configureHttp({ baseURL: 'http://127.0.0.1:1', token: () => '', onUnauthorized: () => undefined, onRenewRequested: () => undefined });
    await expect(request('/api/ok')).rejects.toMatchObject({ status: 0, message: '000 No connection' });
  });
});
