import { apiPaths, extractPath, joinPath, patchPath } from '../paths';
import { firstItems } from './first-items';
import { fetchJson, fetchJsonAsItArrives, exchange } from './http';
import type { DiskUsage, FileInfo, Resource } from './types';

/** GET /api/resources{path}: a folder listing or a file's info. */
export async function getResource(path: string): Promise<Resource> {
  return fetchJson<Resource>(apiPaths.resources(path));
}

/**
 * The fewest items worth showing before a folder has fully arrived: four screens of rows. A folder
 * this small arrives whole at once anyway, and is shown once.
 */
export const FIRST_ITEMS = 200;

/**
 * getResource, also handing `onFirstItems` the first items of a large folder while the server is
 * still reading the rest from its disk: once, and only when more items follow and have not
 * arrived by the next task (an answer that is all here, in several pieces, is shown once).
 */
export async function getResourceAsItArrives(path: string, onFirstItems: (items: FileInfo[]) => void): Promise<Resource> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await fetchJsonAsItArrives<Resource>(apiPaths.resources(path), (received) => {
      const first = firstItems(received, FIRST_ITEMS);
      if (first.kind === 'items') timer = setTimeout(() => onFirstItems(JSON.parse(`[${first.json}]`) as FileInfo[]), 0);
      return first.kind !== 'wait';
    });
  } finally {
    clearTimeout(timer);
  }
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

/** PATCH /api/resources{archive}?action=extract&destination=&override= (beyond.md §5). */
export async function extractItem(archive: string, dest: string, override: boolean): Promise<void> {
  await exchange(extractPath(archive, dest, override), { method: 'PATCH' });
}

export type ChecksumAlgo = 'md5' | 'sha1' | 'sha256' | 'sha512';

/** GET /api/resources{path}?checksum=: the file's digest in lowercase hex. */
export async function checksum(path: string, algo: ChecksumAlgo): Promise<string> {
  const info = await fetchJson<Resource>(`${apiPaths.resources(path)}?checksum=${algo}`);
  return info.checksums?.[algo] ?? '';
}
