import { apiPaths, joinPath } from '../paths';
import { fetchJson, request } from './http';
import type { DiskUsage, Resource } from './types';

/** GET /api/resources{path}: a folder listing or a file's info. */
export async function getResource(path: string): Promise<Resource> {
  return fetchJson<Resource>(apiPaths.resources(path));
}

/**
 * POST /api/resources{dir}{name}: creates an empty file, or a folder when `isDir` (the trailing
 * slash tells the server); never overwrites. Resolves with the new item's user path.
 */
export async function createItem(dir: string, name: string, isDir: boolean): Promise<string> {
  const path = joinPath(dir, name, isDir);
  await request(`${apiPaths.resources(path)}?override=false`, { method: 'POST', body: '' });
  return path;
}

/** GET /api/usage{folder}: used and total bytes of the volume holding the folder. */
export async function getUsage(folder: string): Promise<DiskUsage> {
  return fetchJson<DiskUsage>(apiPaths.usage(folder));
}
