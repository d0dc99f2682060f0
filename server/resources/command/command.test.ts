import { access, chmod, readFile, realpath, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { appsForEachTest } from '../../../tests/support/per-test';
import { type TestApp, type TestAppOptions, type TestUserFields } from '../../../tests/support/test-app';
import type { Tree } from '../../../tests/support/tree';

const startApp = appsForEachTest();

const SCRIPTS: Tree = {
  'stream.sh': '#!/bin/sh\necho ready\nwhile [ ! -f go ]; do sleep 0.05; done\necho done\n',
  'mixed.sh': '#!/bin/sh\necho out1\nsleep 0.2\necho err1 >&2\nsleep 0.2\necho out2\n',
  'fail.sh': '#!/bin/sh\necho partial\nexit 3\n',
  'linger.sh': '#!/bin/sh\necho $$ > leader.pid\nsleep 30 &\necho $! > child.pid\necho started\nwait\n',
  'docs/a.txt': 'a',
  'docs/b.txt': 'b',
  'secret/x.txt': 'x',
  'outside-link': { symlink: '/' },
};
const RUNNER: TestUserFields = {
  username: 'runner',
  perm: { execute: true, create: true },
  commands: ['echo', 'ls', 'pwd', 'cat', 'sh', './stream.sh', './mixed.sh', './fail.sh', './linger.sh', 'filemgr-missing-program'],
  rules: [{ regex: false, allow: false, path: '/secret', regexp: null }],
};

interface Started {
  t: TestApp;
  url: (path?: string) => string;
}

async function start(opts: { shell?: string[]; exec?: boolean; user?: Partial<TestUserFields> } & Pick<TestAppOptions, 'tree'> = {}): Promise<Started> {
  const t = await startApp({
    tree: { ...SCRIPTS, ...opts.tree },
    config: { enableExec: opts.exec ?? true },
    env: { PATH: process.env.PATH },
    settings: (s) => {
      s.shell = opts.shell ?? [];
    },
  });
  await t.addUser({ ...RUNNER, ...opts.user });
  for (const script of ['stream.sh', 'mixed.sh', 'fail.sh', 'linger.sh']) await chmod(join(t.root, script), 0o755);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  return { t, url: (path = '/') => `ws://127.0.0.1:${port}/api/command${path}` };
}

interface Outcome {
  /** The HTTP status when the upgrade was refused. */
  status?: number;
  body?: string;
  messages: string[];
  code?: number;
  reason?: string;
}

interface SessionOptions {
  path?: string;
  lines?: string[];
  as?: string;
  headers?: Record<string, string>;
  /** Called for each message; may act on the socket (e.g. close it). */
  onMessage?: (text: string, ws: WebSocket) => void | Promise<void>;
}

/** Opens the runner socket, sends the lines, and collects everything until it closes. */
function session(s: Started, o: SessionOptions = {}): Promise<Outcome> {
  const token = s.t.token(o.as ?? 'runner');
  const ws = new WebSocket(s.url(o.path), { headers: o.headers ?? { cookie: `auth=${token}` } });
  const out: Outcome = { messages: [] };
  return new Promise((resolve, reject) => {
    ws.on('unexpected-response', (_req, res) => {
      out.status = res.statusCode;
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ ...out, body }));
    });
    ws.on('open', () => {
      for (const line of o.lines ?? []) ws.send(line);
    });
    ws.on('message', (data: Buffer) => {
      const text = data.toString();
      out.messages.push(text);
      void o.onMessage?.(text, ws);
    });
    ws.on('close', (code, reason) => resolve({ ...out, code, reason: reason.toString() }));
    ws.on('error', (err) => (out.status === undefined ? reject(err) : undefined));
  });
}

const exists = (path: string): Promise<boolean> =>
  access(path).then(
    () => true,
    () => false,
  );

describe('GET /api/command: refused before the upgrade', () => {
  it('answers 401 without a token, and to a token in the query string', async () => {
    const s = await start();
    expect(await session(s, { headers: {} })).toMatchObject({ status: 401, body: '401 Unauthorized\n' });
    const query = await session(s, { path: `/?auth=${s.t.token('runner')}`, headers: {} });
    expect(query.status).toBe(401);
  });

  it('accepts the token in X-Auth as well as in the auth cookie', async () => {
    const s = await start();
    const res = await session(s, { headers: { 'x-auth': s.t.token('runner') }, lines: ['echo hi'] });
    expect(res.messages).toEqual(['hi']);
  });

  it('answers 400 to a plain HTTP request', async () => {
    const s = await start();
    const res = await s.t.app.inject({ method: 'GET', url: '/api/command/', headers: { 'x-auth': s.t.token('runner') } });
    expect(res.statusCode).toBe(400);
  });

  it('answers 403 to another origin and accepts its own', async () => {
    const s = await start();
    const cookie = `auth=${s.t.token('runner')}`;
    const host = new URL(s.url()).host;
    expect((await session(s, { headers: { cookie, origin: 'http://evil.example' } })).status).toBe(403);
    expect((await session(s, { headers: { cookie, origin: 'null' } })).status).toBe(403);
    expect((await session(s, { headers: { cookie, origin: `http://${host}` }, lines: ['echo same'] })).messages).toEqual(['same']);
  });

  it.each([
    ['a folder a rule denies', '/secret', 403],
    ['a symlink out of the scope', '/outside-link', 403],
    ['a missing folder', '/nope', 404],
    ['a file', '/docs/a.txt', 400],
  ])('answers %s as the working directory with %i', async (_name, path, status) => {
    const s = await start();
    expect((await session(s, { path, lines: ['echo x'] })).status).toBe(status);
  });
});

describe('GET /api/command: what runs', () => {
  it('runs an allowed program without a shell and closes without a status (1006)', async () => {
    const s = await start();
    const res = await session(s, { lines: ['echo "a b"'] });
    expect(res.messages).toEqual(['a b']);
    expect(res.code).toBe(1006);
  });

  it('waits for a non-blank line', async () => {
    const s = await start();
    expect((await session(s, { lines: ['', '   ', '\n', '  echo hi  '] })).messages).toEqual(['hi']);
  });

  it('answers a parse error with its text', async () => {
    const s = await start();
    const res = await session(s, { lines: ['echo "a'] });
    expect(res.messages).toHaveLength(1);
    expect(res.messages[0]).toMatch(/^error parsing command:/);
  });

  it('runs in the requested folder', async () => {
    const s = await start();
    expect((await session(s, { path: '/docs', lines: ['pwd'] })).messages).toEqual([await realpath(join(s.t.root, 'docs'))]);
    expect((await session(s, { path: '/docs/', lines: ['ls'] })).messages).toEqual(['a.txt', 'b.txt']);
    expect((await session(s, { path: '', lines: ['pwd'] })).messages).toEqual([await realpath(s.t.root)]);
  });

  it('streams each line as the program produces it', async () => {
    const s = await start();
    const res = await session(s, {
      lines: ['./stream.sh'],
      // The script prints "done" only after "go" exists: buffered output would never get here.
      onMessage: (text) => (text === 'ready' ? writeFile(join(s.t.root, 'go'), '') : undefined),
    });
    expect(res.messages).toEqual(['ready', 'done']);
  });

  it('interleaves stdout and stderr in the order they were written', async () => {
    const s = await start();
    expect((await session(s, { lines: ['./mixed.sh'] })).messages).toEqual(['out1', 'err1', 'out2']);
  });

  it.each([
    ['a non-zero exit status', './fail.sh', ['partial']],
    ['a program that cannot start', 'filemgr-missing-program', []],
  ])('closes with 1011 Internal Server Error after %s', async (_name, line, messages) => {
    const s = await start();
    const res = await session(s, { lines: [line] });
    expect(res).toMatchObject({ messages, code: 1011, reason: 'Internal Server Error' });
  });

  it('kills the program and what it started when the socket closes', async () => {
    const s = await start();
    const res = await session(s, { lines: ['./linger.sh'], onMessage: (text, ws) => (text === 'started' ? ws.close() : undefined) });
    expect(res.messages).toEqual(['started']);
    const pids = await Promise.all(['leader.pid', 'child.pid'].map(async (f) => Number(await readFile(join(s.t.root, f), 'utf8'))));
    const alive = (pid: number): boolean => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    for (let i = 0; i < 100 && pids.some(alive); i++) await sleep(50);
    expect(pids.filter(alive)).toEqual([]);
  });

  it('hands the whole line to the configured shell', async () => {
    const s = await start({ shell: ['/bin/sh', '-c'] });
    expect((await session(s, { path: '/docs', lines: ['echo "a  b" *.txt'] })).messages).toEqual(['a  b a.txt b.txt']);
  });
});

describe('GET /api/command: what never runs', () => {
  it.each([
    ['exec is disabled on the server', { exec: false }],
    ['the user lacks execute', { user: { perm: { execute: false } } }],
    ['the program is not on the allow-list', { user: { commands: ['ls'] } }],
  ])('answers Command not allowed. when %s', async (_name, opts) => {
    const s = await start(opts);
    const res = await session(s, { lines: ['echo hi'] });
    expect(res).toMatchObject({ messages: ['Command not allowed.'], code: 1006 });
  });

  it('reads the permissions again when the command arrives', async () => {
    const s = await start();
    const ws = new WebSocket(s.url(), { headers: { cookie: `auth=${s.t.token('runner')}` } });
    await new Promise((resolve) => ws.once('open', resolve));
    await s.t.store.update((db) => {
      const user = db.users.find((u) => u.username === 'runner');
      if (user) user.perm.execute = false;
    });
    const messages: string[] = [];
    ws.on('message', (d: Buffer) => messages.push(d.toString()));
    ws.send('echo hi');
    await new Promise((resolve) => ws.once('close', resolve));
    expect(messages).toEqual(['Command not allowed.']);
  });

  const INJECTIONS = [
    'echo hi; touch MARK',
    'echo hi && touch MARK',
    'echo hi || touch MARK',
    'echo hi | touch MARK',
    'echo hi & touch MARK',
    'echo $(touch MARK)',
    'echo `touch MARK`',
    'echo hi\ntouch MARK',
    'echo hi\r\ntouch MARK',
    'echo hi > MARK',
    'echo {hi,x} > MARK',
    'touch MARK',
    'sh -c "touch MARK"',
  ];

  it.each(INJECTIONS)('with a shell configured, refuses %j and runs nothing', async (line) => {
    const s = await start({ shell: ['/bin/sh', '-c'], user: { commands: ['echo', 'ls'] } });
    const res = await session(s, { lines: [line] });
    expect(res.messages).toEqual(['Command not allowed.']);
    expect(await exists(join(s.t.root, 'MARK'))).toBe(false);
  });

  it.each(INJECTIONS)('without a shell, never lets %j create the marker', async (line) => {
    const s = await start({ user: { commands: ['echo', 'ls'] } });
    const res = await session(s, { lines: [line] });
    expect(res.code).toBeDefined();
    expect(await exists(join(s.t.root, 'MARK'))).toBe(false);
  });

  it.each(['ls /', 'cat /etc/passwd', 'ls ..', 'cat ../secret.txt', 'ls docs/../..', 'cat --file=/etc/hostname'])('refuses the argument leaving the folder in %j, with or without a shell', async (line) => {
    for (const shell of [[], ['/bin/sh', '-c']]) {
      const s = await start({ shell });
      const res = await session(s, { path: '/docs', lines: [line] });
      expect(res.messages).toEqual(['Command not allowed.']);
    }
  });

  it('closes a socket whose command line is larger than 64 KiB without running it', async () => {
    const s = await start();
    const res = await session(s, { lines: [`echo ${'x'.repeat(70 * 1024)}`] });
    expect(res.messages).toEqual([]);
    expect(res.code).toBe(1009);
  });
});
