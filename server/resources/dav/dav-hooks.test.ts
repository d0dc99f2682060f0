import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, TEST_ADMIN, type TestApp } from '../../../tests/support/test-app';

let t: TestApp | undefined;
let logDir: string | undefined;
afterEach(async () => {
  await t?.close();
  if (logDir) await rm(logDir, { recursive: true, force: true });
  t = undefined;
});

const auth = `Basic ${Buffer.from(`${TEST_ADMIN.username}:${TEST_ADMIN.password}`).toString('base64')}`;

describe('WebDAV writes run the event hooks (api.md §9)', () => {
  it('runs upload, save, copy, rename and delete hooks with the real paths', async () => {
    logDir = await mkdtemp(join(tmpdir(), 'dav-hooks-'));
    const log = join(logDir, 'log');
    const line = [`echo "$TRIGGER $FILE" >> ${log}`];
    const events = ['upload', 'save', 'copy', 'rename', 'delete'];
    t = await buildTestApp({
      env: { PATH: process.env.PATH },
      config: { enableExec: true },
      settings: (s) => {
        s.shell = ['sh', '-c'];
        s.commands = Object.fromEntries(events.map((e) => [`after_${e}`, line]));
      },
    });
    const app = t;
    const call = (method: 'PUT' | 'COPY' | 'MOVE' | 'DELETE', url: string, headers: Record<string, string> = {}) =>
      app.app.inject({ method, url, headers: { authorization: auth, host: 'localhost', ...headers }, payload: method === 'PUT' ? 'x' : undefined });
    expect((await call('PUT', '/dav/a.txt')).statusCode).toBe(201);
    expect((await call('PUT', '/dav/a.txt')).statusCode).toBe(204);
    expect((await call('COPY', '/dav/a.txt', { destination: '/dav/b.txt' })).statusCode).toBe(201);
    expect((await call('MOVE', '/dav/b.txt', { destination: '/dav/c.txt' })).statusCode).toBe(201);
    expect((await call('DELETE', '/dav/c.txt')).statusCode).toBe(204);
    const lines = (await readFile(log, 'utf8')).trim().split('\n');
    expect(lines).toEqual([
      `after_upload ${join(app.root, 'a.txt')}`,
      `after_save ${join(app.root, 'a.txt')}`,
      `after_copy ${join(app.root, 'a.txt')}`,
      `after_rename ${join(app.root, 'b.txt')}`,
      `after_delete ${join(app.root, 'c.txt')}`,
    ]);
  });

  it('leaves the destination whole when a before_copy hook refuses', async () => {
    t = await buildTestApp({ tree: { 'a.txt': 'a', 'b.txt': 'b' }, env: { PATH: process.env.PATH }, config: { enableExec: true }, settings: (s) => (s.commands = { before_copy: ['false'] }) });
    const res = await t.app.inject({ method: 'COPY', url: '/dav/a.txt', headers: { authorization: auth, destination: '/dav/b.txt' } });
    expect(res.statusCode).toBe(500);
    expect(await readFile(join(t.root, 'b.txt'), 'utf8')).toBe('b');
  });
});
