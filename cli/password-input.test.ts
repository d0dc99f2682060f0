import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import bcrypt from 'bcryptjs';
import { describe, expect, it } from 'vitest';
import type { Database } from '../server/state/schema';
import type { InStream } from './io';
import { run } from './run';
import { memoryIo, runCli } from '../tests/support/cli-io';

const PASSWORD = 'violet-harbour-lantern';

/** A stream that says it is a terminal and records the raw-mode switches. */
function terminal(): { stream: PassThrough & InStream; rawModes: boolean[] } {
  const rawModes: boolean[] = [];
  const stream = Object.assign(new PassThrough(), { isTTY: true, setRawMode: (raw: boolean) => rawModes.push(raw) });
  return { stream, rawModes };
}

async function usersAdd(stdin: InStream | undefined, feed: (cwd: string) => void = () => undefined, argv = ['users', 'add', 'bob']) {
  const cwd = await mkdtemp(join(tmpdir(), 'filemgr-password-input-'));
  expect((await runCli(['config', 'init'], { cwd })).code).toBe(0);
  const io = { ...memoryIo(cwd), ...(stdin ? { stdin } : {}) };
  if (argv[1] === 'update') expect((await runCli(['users', 'add', 'bob', 'first-password-long-enough'], { cwd })).code).toBe(0);
  const done = run(argv, { HOME: cwd }, io);
  feed(cwd);
  const code = await done;
  const db = JSON.parse(await readFile(join(cwd, 'filemgr.json'), 'utf8')) as Database;
  return { code, stdout: io.out(), stderr: io.err(), bob: db.users.find((u) => u.username === 'bob') };
}

describe('users add without a password argument', () => {
  it('reads the first line of a pipe', async () => {
    const pipe = new PassThrough();
    const r = await usersAdd(pipe, () => pipe.end(`${PASSWORD}\r\nignored\n`));
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^ID +Username/);
    expect(await bcrypt.compare(PASSWORD, r.bob?.password ?? '')).toBe(true);
  });

  it('takes a pipe that ends without a line end', async () => {
    const pipe = new PassThrough();
    const r = await usersAdd(pipe, () => pipe.end(PASSWORD));
    expect(r.code).toBe(0);
    expect(await bcrypt.compare(PASSWORD, r.bob?.password ?? '')).toBe(true);
  });

  it('asks twice at a terminal with echo off, honouring backspace, and never prints the password', async () => {
    const { stream, rawModes } = terminal();
    const r = await usersAdd(stream, () => {
      stream.write(`${PASSWORD}x\u007f\r`);
      setTimeout(() => stream.write(`${PASSWORD}\r`), 20);
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('Password for bob: \nRepeat the password: \n');
    expect(r.stdout).not.toContain(PASSWORD);
    expect(rawModes).toEqual([true, false, true, false]);
    expect(await bcrypt.compare(PASSWORD, r.bob?.password ?? '')).toBe(true);
  });

  it('keeps both answers when they arrive in one chunk', async () => {
    const { stream } = terminal();
    const r = await usersAdd(stream, () => stream.write(`${PASSWORD}\r${PASSWORD}\r`));
    expect(r.code).toBe(0);
    expect(await bcrypt.compare(PASSWORD, r.bob?.password ?? '')).toBe(true);
  });

  it.each([
    ['two different answers', `${PASSWORD}\rsomething-else-entirely\r`, 'filemgr: the two passwords differ, nothing changed\n'],
    ['Ctrl-C', 'viol\u0003', 'filemgr: cancelled, nothing changed\n'],
  ])('creates nobody after %s', async (_what, typed, line) => {
    const { stream, rawModes } = terminal();
    const r = await usersAdd(stream, () => stream.write(typed));
    expect(r.code).toBe(1);
    expect(r.stderr.endsWith(line)).toBe(true);
    expect(rawModes.at(-1)).toBe(false);
    expect(r.bob).toBeUndefined();
  });

  it.each([
    ['no standard input', undefined],
    ['an empty pipe', new PassThrough().end()],
  ])('says how to give the password with %s', async (_what, stdin) => {
    const r = await usersAdd(stdin);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('filemgr: no password given: type it at the prompt, or pipe it on standard input (printf \'%s\\n\' "$PASSWORD" | filemgr users add bob)\n');
    expect(r.bob).toBeUndefined();
  });
});

describe('users update --password -', () => {
  it('reads the new password from a pipe', async () => {
    const pipe = new PassThrough();
    const r = await usersAdd(pipe, () => pipe.end(`${PASSWORD}\n`), ['users', 'update', 'bob', '--password', '-']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(await bcrypt.compare(PASSWORD, r.bob?.password ?? '')).toBe(true);
  });

  it('asks at a terminal', async () => {
    const { stream } = terminal();
    const r = await usersAdd(stream, () => stream.write(`${PASSWORD}\r${PASSWORD}\r`), ['users', 'update', 'bob', '-p', '-']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('Password for bob: \nRepeat the password: \n');
    expect(await bcrypt.compare(PASSWORD, r.bob?.password ?? '')).toBe(true);
  });

  it('says how to pipe it when there is no input', async () => {
    const r = await usersAdd(undefined, () => undefined, ['users', 'update', 'bob', '--password', '-']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('filemgr: no password given: type it at the prompt, or pipe it on standard input (printf \'%s\\n\' "$PASSWORD" | filemgr users update bob --password -)\n');
  });
});
