import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ExpectedVersions {
  filemgr: string;
  node: string;
  sharp: string;
  libvips: string;
}

/** How a bounded run ended: `code` or `signal` as the child reported them; `timedOut` when the signal was ours. */
export interface RunOutcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutSeconds: number;
}

/**
 * Runs `file args` and resolves however it ends. A child still running after `timeoutSeconds` is
 * killed with SIGKILL (a process stuck in its exit path may not act on SIGTERM) and reported as timed out.
 */
export function runBounded(file: string, args: readonly string[], options: RunOptions): Promise<RunOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    let killedForTime = false;
    const timer = setTimeout(() => {
      killedForTime = child.kill('SIGKILL');
    }, options.timeoutSeconds * 1000);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', () => {
      clearTimeout(timer);
      // A process of its own may still hold the pipes open; what they said so far is enough.
      if (killedForTime) for (const stream of [child.stdout, child.stderr]) stream.destroy();
    });
    child.once('close', (code, signal) => {
      const timedOut = killedForTime && signal === 'SIGKILL';
      resolve({ code, signal, timedOut, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() });
    });
  });
}

/** The last `count` lines of `text`, for an error message. */
function tail(text: string, count: number): string {
  const lines = text.trimEnd().split('\n');
  return (lines.length > count ? ['…', ...lines.slice(-count)] : lines).join('\n');
}

/** Why a run failed: timed out, killed by a signal, or its exit code; then the tails of stderr and stdout. */
export function describeFailure(outcome: RunOutcome, timeoutSeconds: number): string {
  const how = outcome.timedOut ? `timed out after ${timeoutSeconds} s` : outcome.signal !== null ? `was killed by ${outcome.signal}` : `exited with code ${String(outcome.code)}`;
  const streams = (['stderr', 'stdout'] as const).map((name) => (outcome[name].trim() === '' ? `${name} was empty` : `${name} ended with:\n${tail(outcome[name], 20)}`));
  return `${how}; ${streams.join('\n')}`;
}

/** The names `version --verbose` must print, each on a line with its version. */
function missing(output: string, expected: ExpectedVersions): string[] {
  const lines = output.split('\n');
  const wants: [RegExp, string][] = [
    [/\bfilemgr\b/i, expected.filemgr],
    [/\bNode\.js\b/, expected.node.replace(/^v/, '')],
    [/\bsharp\b/, expected.sharp],
    [/\blibvips\b/, expected.libvips],
    // The executable's start compiles nothing its code cache holds; a rejected cache still runs, slower.
    [/\bcode cache\b/, 'used'],
    // Read through the mapping, the bundle and its code cache stay resident: 4 MB of idle RSS.
    [/\bassets\b/, 'read from the file'],
  ];
  return wants
    .filter(([name, version]) => !lines.some((line) => name.test(line) && line.includes(version)))
    .map(([name, version]) => `${name.source.replace(/\\b|\\/g, '')} ${version}`);
}

/** How long the check lets `version --verbose` run: it takes well under a second, 0.15 s of it unpacking sharp. */
export const CHECK_TIMEOUT_SECONDS = 30;

/**
 * Runs `<executable> version --verbose` as a stranger would: from an empty directory with
 * `env -i HOME=<tmp>` (no node, no node_modules), so sharp is extracted from the executable.
 * Throws saying how it ended (exit code, signal or timeout, with stderr's tail) when the command
 * fails, and with the output when a version is missing.
 */
export async function checkExecutable(executable: string, expected: ExpectedVersions, timeoutSeconds = CHECK_TIMEOUT_SECONDS): Promise<string> {
  const home = await mkdtemp(join(tmpdir(), 'filemgr-build-check-'));
  try {
    const outcome = await runBounded(executable, ['version', '--verbose'], { cwd: home, env: { HOME: home }, timeoutSeconds });
    if (outcome.code !== 0) throw new Error(`${executable} version --verbose ${describeFailure(outcome, timeoutSeconds)}`);
    const absent = missing(outcome.stdout, expected);
    if (absent.length > 0) throw new Error(`${executable} version --verbose does not print ${absent.join(', ')}; it printed:\n${outcome.stdout}${outcome.stderr}`);
    return outcome.stdout.trim();
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}
