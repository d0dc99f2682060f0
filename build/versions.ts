import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface BuildVersion {
  version: string;
  commit: string;
}

/** package.json's version and the short commit (`untracked` outside a git checkout). */
export async function buildVersion(root: string): Promise<BuildVersion> {
  const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { version?: unknown };
  if (typeof pkg.version !== 'string' || pkg.version === '') throw new Error('package.json has no version');
  let commit = 'untracked';
  try {
    const { stdout } = await run('git', ['rev-parse', '--short', 'HEAD'], { cwd: root });
    commit = stdout.trim() || commit;
  } catch {
    // No git, or not a checkout (a source tarball): the build still works.
  }
  return { version: pkg.version, commit };
}

/** The esbuild `define`s read by server/version.ts. */
export function versionDefines(v: BuildVersion): Record<string, string> {
  return { __FILEMGR_VERSION__: JSON.stringify(v.version), __FILEMGR_COMMIT__: JSON.stringify(v.commit) };
}
