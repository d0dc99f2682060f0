import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from './command-table';
import { runCli } from '../tests/support/cli-io';

describe('wording of the command line', () => {
  it.each(COMMANDS.map((c) => [c.name === '' ? '(serve)' : c.name, c.name]))('%s --help says "auth method", never "auther"', async (_label, name) => {
    const r = await runCli([...name.split(' ').filter((w) => w !== ''), '--help'], { cwd: await mkdtemp(join(tmpdir(), 'filemgr-wording-')) });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(/auther/i);
  });
});
