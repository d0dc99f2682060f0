import { mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * A file tree for tests: keys are '/'-separated relative paths; a string or Buffer is a file's
 * content, `null` an empty directory, `{ symlink: target }` a symbolic link (target as given).
 */
export type Tree = Record<string, string | Buffer | null | { symlink: string }>;

/** Creates a fresh temp directory holding `tree` and returns its absolute path. */
export async function makeTree(tree: Tree = {}, prefix = 'filemgr-test-'): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), prefix));
  await writeTree(root, tree);
  return root;
}

/** Writes `tree` below an existing directory. */
export async function writeTree(root: string, tree: Tree): Promise<void> {
  for (const [rel, value] of Object.entries(tree)) {
    const path = join(root, rel);
    if (value === null) {
      await mkdir(path, { recursive: true });
      continue;
    }
    await mkdir(dirname(path), { recursive: true });
    if (typeof value === 'object' && !Buffer.isBuffer(value)) await symlink(value.symlink, path);
    else await writeFile(path, value);
  }
}
