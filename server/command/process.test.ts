import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { runProgram, type ProgramRun } from './process';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'filemgr-run-'));
  dirs.push(dir);
  return dir;
}

function run(argv: string[], opts: Partial<ProgramRun> = {}): { lines: string[]; done: ReturnType<typeof runProgram> } {
  const lines: string[] = [];
  const done = runProgram({ argv, cwd: tmpdir(), env: { PATH: process.env.PATH }, signal: new AbortController().signal, onLine: (l) => void lines.push(l), ...opts });
  return { lines, done };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor(check: () => boolean | Promise<boolean>, ms = 5000): Promise<void> {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(20)) if (await check()) return;
  throw new Error('timed out');
}

describe('runProgram', () => {
  it('streams stdout and stderr line by line in the order they are produced', async () => {
    const { lines, done } = run(['sh', '-c', 'echo out1; sleep 0.2; echo err1 >&2; sleep 0.2; echo out2; printf tail']);
    expect(await done).toEqual({ ok: true });
    expect(lines).toEqual(['out1', 'err1', 'out2', 'tail']);
  });

  it('hands on a line while the program is still running', async () => {
    const { lines, done } = run(['sh', '-c', 'echo early; sleep 1; echo late']);
    await waitFor(() => lines.length > 0);
    expect(lines).toEqual(['early']);
    await done;
    expect(lines).toEqual(['early', 'late']);
  });

  it('runs in the working directory with the environment given', async () => {
    const cwd = await tempDir();
    const { lines, done } = run(['sh', '-c', 'pwd; echo "$GREETING"'], { cwd, env: { PATH: process.env.PATH, GREETING: 'hi' } });
    await done;
    expect(lines).toEqual([cwd, 'hi']);
  });

  it.each([
    ['a non-zero exit status', ['sh', '-c', 'exit 3'], 'exit status 3'],
    ['a program that does not exist', ['filemgr-no-such-program-x'], 'ENOENT'],
  ])('reports failure for %s', async (_name, argv, reason) => {
    const result = await run(argv).done;
    expect(result.ok).toBe(false);
    expect(result.reason).toContain(reason);
  });

  it('pauses the output while the consumer is behind and loses nothing', async () => {
    const lines: string[] = [];
    const onLine = (line: string): Promise<void> => {
      lines.push(line);
      return sleep(1);
    };
    const result = await runProgram({ argv: ['sh', '-c', 'seq 1 300'], cwd: tmpdir(), env: { PATH: process.env.PATH }, signal: new AbortController().signal, onLine });
    expect(result.ok).toBe(true);
    expect(lines).toEqual(Array.from({ length: 300 }, (_, i) => String(i + 1)));
  });

  it('kills the whole process group when aborted', async () => {
    const dir = await tempDir();
    const script = `sleep 30 & echo $! > ${join(dir, 'child')}; echo $$ > ${join(dir, 'leader')}; echo started; wait`;
    const controller = new AbortController();
    const { lines, done } = run(['sh', '-c', script], { signal: controller.signal });
    await waitFor(() => lines.includes('started'));
    const child = Number(await readFile(join(dir, 'child'), 'utf8'));
    const leader = Number(await readFile(join(dir, 'leader'), 'utf8'));
    expect(alive(child)).toBe(true);
    controller.abort();
    expect((await done).ok).toBe(false);
    await waitFor(() => !alive(child) && !alive(leader));
  });

  it('kills what the program left running when aborted after the program itself exited', async () => {
    const dir = await tempDir();
    const controller = new AbortController();
    // The background sleep keeps stdout open after the shell exits.
    const { lines, done } = run(['sh', '-c', `sleep 30 & echo $! > ${join(dir, 'child')}; echo started`], { signal: controller.signal });
    await waitFor(() => lines.includes('started'));
    const child = Number(await readFile(join(dir, 'child'), 'utf8'));
    controller.abort();
    await done;
    await waitFor(() => !alive(child));
  });
});
