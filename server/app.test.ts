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
