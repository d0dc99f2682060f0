import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeTree } from '../tests/support/tree';
import { checkExecutable } from './check';

const expected = { filemgr: '0.1.0', node: 'v24.21.0', sharp: '0.35.5', libvips: '8.18.7' };

/** A stand-in executable: a shell script that prints `output` for `version --verbose`. */
async function fake(output: string, exit = 0): Promise<string> {
  const dir = await makeTree();
  const path = join(dir, 'filemgr');
  writeFileSync(path, `#!/bin/sh\n[ "$1 $2" = "version --verbose" ] || exit 9\ncat <<'OUT'\n${output}\nOUT\nexit ${exit}\n`);
  chmodSync(path, 0o755);
  return path;
}

/** A stand-in executable running `body` as a shell script. */
async function script(body: string): Promise<string> {
  const dir = await makeTree();
  const path = join(dir, 'filemgr');
  writeFileSync(path, `#!/bin/sh\n${body}`);
  chmodSync(path, 0o755);
  return path;
}

const full = 'filemgr v0.1.0/abc1234\nNode.js v24.21.0\nsharp 0.35.5\nlibvips 8.18.7\ncode cache used\nassets read from the file';

describe('checkExecutable', () => {
  it('passes when all four versions are printed, the code cache was used and the assets read from the file', async () => {
    expect(await checkExecutable(await fake(full), expected)).toBe(full);
  });

  it.each([
    ['libvips', full.replace('libvips 8.18.7', ''), 'libvips 8.18.7'],
    ['sharp', full.replace('sharp 0.35.5', 'sharp 0.34.0'), 'sharp 0.35.5'],
    ['Node.js', full.replace('Node.js v24.21.0', 'Node.js v20.20.2'), 'Node.js 24.21.0'],
    ['filemgr', full.replace('filemgr v0.1.0', 'filemgr v0.0.9'), 'filemgr 0.1.0'],
    ['the code cache', full.replace('code cache used', 'code cache rejected'), 'code cache used'],
    ['how assets were read', full.replace('assets read from the file', 'assets read through the mapping'), 'assets read from the file'],
  ])('fails naming %s when its version is missing or wrong', async (_name, output, named) => {
    await expect(checkExecutable(await fake(output), expected)).rejects.toThrow(`does not print ${named}`);
  });

  it('fails saying the exit code and the tail of stderr when the command exits non-zero', async () => {
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join('\n');
    const path = await script(`printf '%s\\n' "${lines.replace(/\n/g, '" "')}" >&2\nexit 3\n`);
    const error = await checkExecutable(path, expected).catch((err: Error) => err);
    expect(error).toBeInstanceOf(Error);
    const message = (error as Error).message;
    expect(message).toContain('version --verbose exited with code 3; stderr ended with:\n…\nline 11\n');
    expect(message).toContain('line 30\nstdout was empty');
    expect(message).not.toContain('line 10\n');
  });

  it('fails naming the signal when the command is killed by one', async () => {
    await expect(checkExecutable(await script('echo dying >&2\nkill -SEGV $$\n'), expected)).rejects.toThrow(/version --verbose was killed by SIGSEGV; stderr ended with:\ndying/);
  });

  it('fails saying it timed out when the command does not exit, and does not wait for it', async () => {
    // exec: the shell becomes sleep, the one process the check kills, as a hung filemgr would be.
    await expect(checkExecutable(await script('echo started\nexec sleep 600\n'), expected, 1)).rejects.toThrow(
      /version --verbose timed out after 1 s; stderr was empty\nstdout ended with:\nstarted/,
    );
  });

  it('runs the executable with nothing but HOME in its environment, from an empty directory', async () => {
    const dir = await makeTree();
    const path = join(dir, 'filemgr');
    writeFileSync(path, `#!/bin/sh\necho "${full.replace(/\n/g, '\\n')}"\nenv | sort\nls -A | wc -l\n`);
    chmodSync(path, 0o755);
    const out = await checkExecutable(path, expected);
    const lines = out.split('\n').slice(4);
    expect(lines.filter((l) => /^[A-Z_]+=/.test(l)).map((l) => l.split('=')[0])).toEqual(['HOME', 'PWD']);
    expect(lines.at(-1)).toBe('0');
  });
});
