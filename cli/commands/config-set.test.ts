import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../tests/support/cli-io';

async function initialised(): Promise<string> {
  const cwd = await mkdtemp(join(tmpdir(), 'filemgr-config-set-'));
  expect((await runCli(['config', 'init'], { cwd })).code).toBe(0);
  return cwd;
}

describe('filemgr config set output', () => {
  it('prints one line naming the flags saved, not the whole configuration', async () => {
    const cwd = await initialised();
    const r = await runCli(['config', 'set', '--signup', '-p', '9000'], { cwd });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(`Saved --port, --signup to ${join(cwd, 'filemgr.json')} (filemgr config cat prints the whole configuration)\n`);
  });

  it('names a server value taken from the environment as saved', async () => {
    const cwd = await initialised();
    const r = await runCli(['config', 'set'], { cwd, env: { FILEMGR_ADDRESS: '0.0.0.0' } });
    expect(r.stdout).toBe(`Saved --address to ${join(cwd, 'filemgr.json')} (filemgr config cat prints the whole configuration)\n`);
  });

  it('says so and leaves the file untouched when no flag is given', async () => {
    const cwd = await initialised();
    const before = await readFile(join(cwd, 'filemgr.json'), 'utf8');
    const r = await runCli(['config', 'set'], { cwd });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`Nothing to change: no flag given, ${join(cwd, 'filemgr.json')} left as it was\n`);
    expect(await readFile(join(cwd, 'filemgr.json'), 'utf8')).toBe(before);
  });
});
