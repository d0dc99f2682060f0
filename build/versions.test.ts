import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { makeTree } from '../tests/support/tree';
import { buildVersion, versionDefines } from './versions';

describe('buildVersion', () => {
  it('reads the version from package.json and the short commit from git', async () => {
    const root = await makeTree({ 'package.json': '{"version":"3.4.5"}' });
    const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
    git('init', '-q');
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'x');
    expect(await buildVersion(root)).toEqual({ version: '3.4.5', commit: git('rev-parse', '--short', 'HEAD') });
  });

  it('reports the commit as untracked outside a git checkout', async () => {
    const root = await makeTree({ 'package.json': '{"version":"1.0.0"}' });
    expect(await buildVersion(root)).toEqual({ version: '1.0.0', commit: 'untracked' });
  });

  it('fails when package.json has no version', async () => {
    const root = await makeTree({ 'package.json': '{}' });
    await expect(buildVersion(root)).rejects.toThrow('package.json has no version');
  });

  it('defines the constants server/version.ts reads, as JavaScript string literals', () => {
    expect(versionDefines({ version: '1.0.0', commit: 'abc1234' })).toEqual({ __FILEMGR_VERSION__: '"1.0.0"', __FILEMGR_COMMIT__: '"abc1234"' });
  });
});
