import { readFile, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';

export interface BrandingFile {
  data: Buffer;
  mtimeMs: number;
}

function isInside(child: string, parent: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

async function canonical(path: string): Promise<string | undefined> {
  try {
    return await realpath(path);
  } catch {
    return undefined;
  }
}

/**
 * The branding directory to serve from, or undefined when none is set, it does not exist, or it
 * lies inside the served root: files users can upload must never become the app's own
 * stylesheet or images (api.md §14 refuses such a setting; this guards databases edited by hand).
 */
export async function usableBrandingDir(files: string, root: string): Promise<string | undefined> {
  if (!files) return undefined;
  const dir = await canonical(resolve(files));
  if (!dir) return undefined;
  const servedRoot = (await canonical(root)) ?? resolve(root);
  return isInside(dir, servedRoot) ? undefined : dir;
}

/**
 * Reads `rel` (`custom.css` or `img/...`) from the branding directory; undefined when it is
 * missing, not a regular file, or resolves (through `..` or a symlink) outside the directory.
 */
export async function readBrandingFile(dir: string, rel: string): Promise<BrandingFile | undefined> {
  const path = await canonical(join(dir, rel));
  if (!path || !isInside(path, dir)) return undefined;
  try {
    const info = await stat(path);
    if (!info.isFile()) return undefined;
    return { data: await readFile(path), mtimeMs: info.mtimeMs };
  } catch {
    return undefined;
  }
}

/** True when the branding directory holds a custom.css (the page configuration's `CSS`). */
export async function hasCustomCss(dir: string | undefined): Promise<boolean> {
  if (!dir) return false;
  const path = await canonical(join(dir, 'custom.css'));
  if (!path || !isInside(path, dir)) return false;
  return stat(path).then((s) => s.isFile(), () => false);
}
