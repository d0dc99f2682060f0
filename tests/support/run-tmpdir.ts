import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * vitest's global setup: every temp directory of a test run goes below one directory of the run,
 * removed when the run ends. The tests make thousands of them (makeTree, CLI sandboxes, Chromium
 * profiles); removing each in its own test was missed often enough that a developer's /tmp held
 * over 10,000 after a few runs. The test workers, and the processes they start with the default
 * environment, inherit TMPDIR, which os.tmpdir() reads.
 */
export default function setup(): () => void {
  const previous = process.env.TMPDIR;
  const dir = mkdtempSync(join(tmpdir(), 'filemgr-test-run-'));
  process.env.TMPDIR = dir;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    rmSync(dir, { recursive: true, force: true });
  };
}
