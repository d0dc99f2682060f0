import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface ExpectedVersions {
  filemgr: string;
  node: string;
  sharp: string;
  libvips: string;
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
  ];
  return wants
    .filter(([name, version]) => !lines.some((line) => name.test(line) && line.includes(version)))
    .map(([name, version]) => `${name.source.replace(/\\b|\\/g, '')} ${version}`);
}

/**
 * Runs `<executable> version --verbose` as a stranger would: from an empty directory with
 * `env -i HOME=<tmp>` (no node, no node_modules), so sharp is extracted from the executable.
 * Throws with the output when a version is missing or the command fails.
 */
export async function checkExecutable(executable: string, expected: ExpectedVersions): Promise<string> {
  const home = await mkdtemp(join(tmpdir(), 'filemgr-build-check-'));
  try {
    const { stdout, stderr } = await run(executable, ['version', '--verbose'], { cwd: home, env: { HOME: home }, timeout: 30_000 }).catch((err: Error & { stdout?: string; stderr?: string }) => {
      throw new Error(`${executable} version --verbose failed: ${err.message}\n${err.stdout ?? ''}${err.stderr ?? ''}`);
    });
    const absent = missing(stdout, expected);
    if (absent.length > 0) throw new Error(`${executable} version --verbose does not print ${absent.join(', ')}; it printed:\n${stdout}${stderr}`);
    return stdout.trim();
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}
