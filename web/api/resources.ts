import { apiPaths, joinPath, patchPath } from '../paths';
import { fetchJson, exchange } from './http';
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
  await exchange(`${apiPaths.resources(path)}?override=false`, { method: 'POST', body: '' });
  return path;
}

/** PUT /api/resources{path}: replaces an existing file's content with `content` (api.md §3.7). */
export async function saveFile(path: string, content: string): Promise<void> {
  await exchange(apiPaths.resources(path), { method: 'PUT', body: content });
}

/** GET /api/usage{folder}: used and total bytes of the volume holding the folder. */
export async function getUsage(folder: string): Promise<DiskUsage> {
  return fetchJson<DiskUsage>(apiPaths.usage(folder));
}

/** DELETE /api/resources{path}. */
export async function deleteItem(path: string): Promise<void> {
  await exchange(apiPaths.resources(path), { method: 'DELETE' });
}

export interface TransferFlags {
  /** Replace an item of the same name at the destination. */
  override: boolean;
  /** Keep both: the server picks a free name such as `a (1).txt`. */
  rename: boolean;
}

/** One copy, or one move/rename (`rename`), of the user path `from` to `to`. */
export interface Move {
  action: 'copy' | 'rename';
  from: string;
  to: string;
}

/** PATCH /api/resources{from}?action=&destination=&override=&rename= (api.md §3.9). */
export async function transferItem(move: Move, flags: TransferFlags): Promise<void> {
  await exchange(patchPath(move, flags), { method: 'PATCH' });
}

export type ChecksumAlgo = 'md5' | 'sha1' | 'sha256' | 'sha512';

/** GET /api/resources{path}?checksum=: the file's digest in lowercase hex. */
export async function checksum(path: string, algo: ChecksumAlgo): Promise<string> {
  const info = await fetchJson<Resource & { checksums?: Record<string, string> }>(`${apiPaths.resources(path)}?checksum=${algo}`);
  return info.checksums?.[algo] ?? '';
}
