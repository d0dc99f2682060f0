import { describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { defaultServerConfig } from '../config';
import { noAssets } from '../lib/assets';
import { requestSerializers } from '../lib/log-redact';
import { emptyDatabase } from '../state/initial';
import { memoryStore } from '../state/store';

interface Line {
  level: number;
  msg: string;
  req?: { method: string; url: string; remoteAddress: string };
  res?: { statusCode: number };
  responseTime?: number;
}

/** An app whose JSON log lines at `level` and above are collected. */
async function logged(level: 'info' | 'debug') {
  const lines: Line[] = [];
  const stream = { write: (line: string) => lines.push(JSON.parse(line) as Line) };
  const app = await buildApp({ store: memoryStore(emptyDatabase()), config: defaultServerConfig(), assets: noAssets(), logger: { level, stream, serializers: requestSerializers } });
  await app.ready();
  lines.length = 0;
  return { app, requests: () => lines.filter((l) => l.req !== undefined || /request/.test(l.msg)) };
}

describe('request log', () => {
  it('writes one line per request, when it is done, with method, redacted URL, address, status and time', async () => {
    const { app, requests } = await logged('info');
    await app.inject({ method: 'GET', url: '/health?auth=s3cret', remoteAddress: '203.0.113.5' });
    expect(requests()).toHaveLength(1);
    const [line] = requests();
    expect(line).toMatchObject({ level: 30, msg: 'request completed', req: { method: 'GET', url: '/health?auth=[redacted]', remoteAddress: '203.0.113.5' }, res: { statusCode: 200 } });
    expect(typeof line?.responseTime).toBe('number');
  });

  it('logs an unknown path and a failed sign-in once each', async () => {
    const { app, requests } = await logged('info');
    await app.inject({ method: 'POST', url: '/api/nope' });
    await app.inject({ method: 'POST', url: '/api/login', payload: { username: 'x', password: 'y' } });
    expect(requests().map((l) => [l.req?.url, l.res?.statusCode])).toEqual([['/api/nope', 404], ['/api/login', 403]]);
  });

  it.each(['/api/renew', '/static/app.js'])('logs %s at debug only', async (url) => {
    const info = await logged('info');
    await info.app.inject({ method: 'GET', url });
    expect(info.requests()).toEqual([]);
    const debug = await logged('debug');
    await debug.app.inject({ method: 'GET', url });
    expect(debug.requests().map((l) => [l.level, l.req?.url])).toEqual([[20, url]]);
  });
});
