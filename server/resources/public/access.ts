import { AppError } from '../../errors';
import type { GateFactory } from '../../fs/gates';
import { requireExisting } from '../../fs/info';
import { baseName, cleanPath, joinPath, parentPath } from '../../fs/paths';
import type { PathGate } from '../../fs/scope';
import type { Throttle } from '../../lib/throttle';
import type { ShareRecord, UserRecord } from '../../state/schema';
import type { Store } from '../../state/store';
import { checkCredentials, type ShareCredentials } from './credentials';

/** Where public access finds a live link by its hash (the shares service, composed in app.ts). */
export interface LinkLookup {
  /** Unknown or expired: 404 (an expired link is deleted). */
  byHash(hash: string): Promise<ShareRecord>;
}

/** What opening a link needs. */
export interface AccessDeps {
  store: Store;
  gates: GateFactory;
  links: LinkLookup;
  throttle: Throttle;
}

/** A public request: the path after the route prefix (`{hash}{sub}`) and the credentials. */
export interface PublicRequest extends ShareCredentials {
  path: string;
  /**
   * HEAD, PATCH or DELETE of a tus upload through an upload link: the upload's secret id, handed
   * out only after the link's password, stands for the credentials (beyond.md §2).
   */
  byUploadId?: boolean;
}

/** An opened link: the gate confined to it and the path to serve inside that gate. */
export interface OpenShare {
  link: ShareRecord;
  owner: UserRecord;
  gate: PathGate;
  /** The requested path inside the gate. */
  path: string;
  /** Whether the link names a directory (else a file: the sub-path is ignored). */
  isDir: boolean;
  /** The base name of the link's path (the name of a directory share's root). */
  name: string;
}

/** Splits `{hash}{sub}`: the first segment is the hash, the rest the sub-path ('/' when absent). */
export function splitPublicPath(raw: string): { hash: string; sub: string } {
  const trimmed = raw.replace(/^\/+/u, '');
  const slash = trimmed.indexOf('/');
  if (slash < 0) return { hash: trimmed, sub: '/' };
  return { hash: trimmed.slice(0, slash), sub: cleanPath(trimmed.slice(slash)) };
}

function ownerOf(store: Store, link: ShareRecord): UserRecord {
  const owner = store.data().users.find((u) => u.id === link.userID);
  if (!owner) throw new AppError('not_found');
  // The owner must still be allowed to share (api.md §3.16 step 3, GHSA-v9w4-gm2x-6rvf), and to
  // create files for an upload link (beyond.md §2).
  const may = link.kind === 'upload' ? owner.perm.create : owner.perm.download;
  if (!owner.perm.share || !may) throw new AppError('forbidden');
  return structuredClone(owner);
}

/**
 * Opens a link for a visitor (api.md §3.16 steps 1-6): the live link, its password or token,
 * its owner with share and download still held, the link's path inside the owner's scope
 * (owner's rules and dotfiles: 403; missing: 404), then a gate re-rooted at the share: its
 * symlinks confined to the share, the owner's rules applied to the owner's full paths. A
 * directory share serves the sub-path; a file share serves the file whatever the sub-path,
 * through a gate rooted at its folder in which only that file is ever asked for.
 */
export async function openShare(deps: AccessDeps, req: PublicRequest): Promise<OpenShare> {
  const { hash, sub } = splitPublicPath(req.path);
  if (hash === '') throw new AppError('not_found');
  const link = await deps.links.byHash(hash);
  // A follow-up request of a tus upload through an upload link holds the upload's id instead.
  if (!req.byUploadId) await checkCredentials(deps.throttle, link, req);
  const owner = ownerOf(deps.store, link);
  const settings = deps.store.data().settings;
  const linkPath = cleanPath(link.path);
  const s = await requireExisting(await deps.gates.forUser(owner, settings), linkPath);
  const name = baseName(linkPath);
  if (s.effective.isDirectory()) {
    return { link, owner, gate: await deps.gates.forShare(owner, settings, linkPath), path: sub, isDir: true, name };
  }
  const gate = await deps.gates.forShare(owner, settings, parentPath(linkPath));
  return { link, owner, gate, path: joinPath('/', name), isDir: false, name };
}
