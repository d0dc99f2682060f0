import { chmod, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { run } from '../run';
import { memoryIo, runCli } from '../../tests/support/cli-io';

const PASSWORD = 'a-long-Pa55word!';
const LISTENING = /listening on (\S+?)"/;

async function ok(cwd: string, ...argv: string[]): Promise<void> {
  const r = await runCli(argv, { cwd });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
}

/** A directory holding only the executable `hello-path`, which prints one line. */
async function binDir(): Promise<string> {
  const bin = await mkdtemp(join(tmpdir(), 'filemgr-bin-'));
  await writeFile(join(bin, 'hello-path'), '#!/bin/sh\necho "hello from PATH"\n');
  await chmod(join(bin, 'hello-path'), 0o755);
  return bin;
}

/** Opens the command socket, sends one line, and collects the messages until it closes. */
function runLine(url: string, token: string, line: string): Promise<string[]> {
  const ws = new WebSocket(url, { headers: { 'x-auth': token } });
  const messages: string[] = [];
  return new Promise((resolve, reject) => {
    ws.on('open', () => ws.send(line));
    ws.on('message', (data: Buffer) => messages.push(data.toString()));
    ws.on('close', () => resolve(messages));
    ws.on('error', reject);
  });
}

describe('filemgr (serve): the command runner\'s environment (api.md §3.18 step 8)', () => {
  it('runs a program found only through the PATH the server was started with', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'filemgr-serve-env-'));
    await mkdir(join(cwd, 'files'));
    await ok(cwd, 'config', 'init', '--root', 'files');
    await ok(cwd, 'users', 'add', 'runner', PASSWORD, '--perm.execute', '--commands', 'hello-path');
    const io = memoryIo(cwd);
    // The test process's own PATH does not hold binDir: only the environment given to run() does.
    const done = run(['-r', 'files', '-p', '0', '--disableExec=false'], { HOME: cwd, PATH: await binDir() }, io);
    try {
      const where = LISTENING.exec(await io.waitFor(LISTENING))?.[1] ?? '';
      const login = await fetch(`${where}/api/login`, { method: 'POST', body: JSON.stringify({ username: 'runner', password: PASSWORD }) });
      expect(login.status).toBe(200);
      const url = `${where.replace(/^http/, 'ws')}/api/command/`;
      expect(await runLine(url, await login.text(), 'hello-path')).toEqual(['hello from PATH']);
    } finally {
      io.stop();
      expect(await done).toBe(0);
    }
  });
});
