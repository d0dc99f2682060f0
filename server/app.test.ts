import { describe, expect, it } from 'vitest';
import { buildApp } from './app';
import { defaultServerConfig } from './config';
import { noAssets } from './lib/assets';
import { emptyDatabase } from './state/initial';
import { memoryStore } from './state/store';

async function app(baseURL = '') {
  return buildApp({ store: memoryStore(emptyDatabase()), config: defaultServerConfig({ baseURL }), assets: noAssets() });
}

describe('app core', () => {
  it.each(['GET', 'POST', 'PUT', 'DELETE'] as const)('answers %s /health with status OK', async (method) => {
    const res = await (await app()).inject({ method, url: '/health' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('{"status":"OK"}');
    expect(res.headers['content-security-policy']).toBe("default-src 'self'; style-src 'unsafe-inline';");
    expect(res.headers['cache-control']).toBe('no-cache, no-store, must-revalidate');
  });

  it.each([
    ['/fb/health', 200],
    ['/health', 200],
    ['/fbx/health', 404],
  ])('strips the base URL /fb from %s (requests without it are routed unchanged)', async (url, status) => {
    const res = await (await app('/fb')).inject({ method: 'POST', url });
    expect(res.statusCode).toBe(status);
  });

  it('answers an unknown non-GET path 404 in the plain-text status format', async () => {
    const res = await (await app()).inject({ method: 'POST', url: '/api/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.body).toBe('404 Not Found\n');
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('a reverse proxy that is not a trusted proxy', () => {
  /** An app whose JSON log lines are collected (level 40 = warn). */
  async function logged(trustedProxies: string[] = []) {
    const lines: { level: number; msg: string }[] = [];
    const stream = { write: (line: string) => lines.push(JSON.parse(line) as { level: number; msg: string }) };
    const a = await buildApp({ store: memoryStore(emptyDatabase()), config: defaultServerConfig({ trustedProxies }), assets: noAssets(), logger: { stream } });
    // Other warnings (no web assets in tests) are not this test's business.
    const warnings = () => lines.filter((l) => l.level === 40 && l.msg.includes('X-Forwarded-For')).map((l) => l.msg);
    return { a, warnings };
  }
  const forwarded = { 'x-forwarded-for': '198.51.100.7' };

  it('warns once, naming --trustedProxy, when a loopback peer sends X-Forwarded-For', async () => {
    const { a, warnings } = await logged();
    for (let i = 0; i < 3; i++) await a.inject({ method: 'GET', url: '/health', headers: forwarded });
    await a.inject({ method: 'POST', url: '/api/login', headers: forwarded, payload: { username: 'x', password: 'y' } });
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]).toMatch(/X-Forwarded-For.*lock that name or share for everyone.*--trustedProxy 127\.0\.0\.1/);
  });

  it.each([
    { what: 'no X-Forwarded-For arrives', trusted: [], headers: {}, remoteAddress: '127.0.0.1' },
    { what: 'the loopback peer is a trusted proxy', trusted: ['127.0.0.1'], headers: forwarded, remoteAddress: '127.0.0.1' },
    { what: 'the peer is not loopback', trusted: [], headers: forwarded, remoteAddress: '203.0.113.9' },
  ])('stays quiet when $what', async ({ trusted, headers, remoteAddress }) => {
    const { a, warnings } = await logged(trusted);
    await a.inject({ method: 'GET', url: '/health', headers, remoteAddress });
    expect(warnings()).toEqual([]);
  });
});
