import type { ShareCreateBody, ShareKind, UploadLinkInfo } from '@contract/share';
import { apiPaths } from '../paths';
import { fetchJson, fetchPublicJson, jsonBody, exchange } from './http';
import type { PublicResource, Share } from './types';

/** GET /api/shares: the caller's links (every link for admins). */
export async function listShares(): Promise<Share[]> {
  return fetchJson<Share[]>(apiPaths.shares);
}

/** DELETE /api/share/{hash}. */
export async function deleteShare(hash: string): Promise<void> {
  await exchange(apiPaths.share(hash), { method: 'DELETE' });
}

/**
 * GET /api/public/share/{hash}{path}: a shared file or folder; `password` travels URL-encoded in
 * X-SHARE-PASSWORD (api.md §3.16), 401 means it is needed or wrong.
 */
export async function getPublicShare(hash: string, path: string, password: string): Promise<PublicResource | UploadLinkInfo> {
  const headers = password ? { 'X-SHARE-PASSWORD': encodeURIComponent(password) } : undefined;
  return fetchPublicJson<PublicResource | UploadLinkInfo>(apiPaths.publicShare(hash, path), { headers });
}

/** GET /api/share{path}: the links of one file or folder. */
export async function sharesOf(path: string): Promise<Share[]> {
  return fetchJson<Share[]>(apiPaths.sharesOf(path));
}

export type ShareUnit = 'seconds' | 'minutes' | 'hours' | 'days';

/** What a new link is: its duration, password, kind and download limit (0 = none). */
export interface NewLink {
  expires: string;
  unit: ShareUnit;
  password: string;
  kind: ShareKind;
  maxDownloads: number;
}

/**
 * POST /api/share{path}: a new link; `expires` empty means permanent, and `password` (already
 * trimmed) empty means none. The API takes the duration as a string (api.md §3.15); kind and
 * maxDownloads are beyond.md §2's.
 */
export async function createShare(path: string, link: NewLink): Promise<Share> {
  const query = link.expires ? `?expires=${encodeURIComponent(link.expires)}&unit=${link.unit}` : '';
  return fetchJson<Share>(`${apiPaths.sharesOf(path)}${query}`, jsonBody(link satisfies ShareCreateBody));
}
