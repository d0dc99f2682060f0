import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { hashPassword } from '../../accounts/password';
import type { ServerConfig } from '../../config';
import type { Share, ShareCreateBody } from '../../contract/share';
import { AppError } from '../../errors';
import type { GateFactory } from '../../fs/gates';
import { requireExisting } from '../../fs/info';
import { canonicalPath, cleanPath } from '../../fs/paths';
import { scopeRoot } from '../../fs/scope';
import type { Database, ShareRecord, UserRecord } from '../../state/schema';
import type { Store } from '../../state/store';
import { shareRequest, type ShareRequest } from './input';

/** What the shares service needs; app.ts composes it. */
export interface SharesDeps {
  store: Store;
  gates: GateFactory;
  config: Pick<ServerConfig, 'root'>;
  /** Milliseconds since the epoch (injectable for expiry tests). */
  now?: () => number;
}

/** The share API of api.md §3.15, and the lookup public access starts from (§3.16). */
export interface SharesService {
  /** GET /api/shares: an admin sees every share, others their own; sorted by owner, then expiry. */
  list(user: UserRecord): Promise<Share[]>;
  /** GET /api/share{p}: the shares of one path (an admin: every owner's share of the same file), sorted as list. */
  forPath(user: UserRecord, raw: string): Promise<Share[]>;
  /** POST /api/share{p}: a new link to an existing, allowed path. */
  create(user: UserRecord, raw: string, body: ShareCreateBody | undefined): Promise<Share>;
  /** DELETE /api/share/{hash}: only the owner or an admin. */
  remove(user: UserRecord, rawHash: string): Promise<void>;
  /** The live link of a hash: unknown 404; expired ones are deleted and answer 404. */
  byHash(hash: string): Promise<ShareRecord>;
}

/** The API representation: never the password hash, never the token (api.md §11). */
function view(link: ShareRecord): Share {
  const counts = { kind: link.kind ?? 'download', maxDownloads: link.maxDownloads ?? 0, downloads: link.downloads ?? 0, uploads: link.uploads ?? 0 };
  return { hash: link.hash, path: link.path, userID: link.userID, expire: link.expire, hasPassword: Boolean(link.password_hash), ...counts };
}

/** beyond.md §2: an upload link asks for files into a folder, so it needs one and the right to create there. */
function checkUploadLink(user: UserRecord, isDir: boolean): void {
  if (!user.perm.create) throw new AppError('forbidden');
  if (!isDir) throw new AppError('bad_request', 'an upload link needs a folder');
}

/** What a new record adds for beyond.md §2; a plain download link stays a filebrowser record. */
function kindFields(request: ShareRequest): Partial<ShareRecord> {
  if (request.kind === 'upload') return { kind: 'upload', uploads: 0 };
  return request.maxDownloads > 0 ? { kind: 'download', maxDownloads: request.maxDownloads, downloads: 0 } : {};
}

function requireSharePerm(user: UserRecord): void {
  if (!user.perm.share || !user.perm.download) throw new AppError('forbidden');
}

function byOwnerThenExpiry(a: ShareRecord, b: ShareRecord): number {
  return a.userID - b.userID || a.expire - b.expire;
}

/** A fresh hash (6 random bytes, URL-safe base64: 8 characters) not used by another link. */
function newHash(db: Database): string {
  for (;;) {
    const hash = randomBytes(6).toString('base64url');
    if (!db.shares.some((s) => s.hash === hash)) return hash;
  }
}

interface Ctx extends SharesDeps {
  nowSeconds: () => number;
}

function expired(link: ShareRecord, now: number): boolean {
  return link.expire !== 0 && link.expire <= now;
}

/** The links still alive; the expired ones met on the way are deleted (api.md §3.15). */
async function live(ctx: Ctx): Promise<ShareRecord[]> {
  const now = ctx.nowSeconds();
  const all = ctx.store.data().shares;
  const alive = all.filter((s) => !expired(s, now));
  if (alive.length !== all.length) {
    await ctx.store.update((db) => {
      db.shares = db.shares.filter((s) => !expired(s, now));
    });
  }
  return alive;
}

/** The on-disk path of a user path in `owner`'s scope, as upstream's FullPath (lexical). */
function fullPath(ctx: Ctx, owner: Pick<UserRecord, 'scope'>, path: string): string {
  return join(scopeRoot(ctx.config.root, owner.scope), cleanPath(path));
}

async function forPath(ctx: Ctx, user: UserRecord, raw: string): Promise<Share[]> {
  requireSharePerm(user);
  const path = canonicalPath(raw);
  const links = await live(ctx);
  if (!user.perm.admin) return links.filter((s) => s.userID === user.id && s.path === path).sort(byOwnerThenExpiry).map(view);
  // An admin sees every owner's links to the same file on disk (api.md §3.15).
  const target = fullPath(ctx, user, path);
  const users = ctx.store.data().users;
  const sameFile = (s: ShareRecord): boolean => {
    const owner = users.find((u) => u.id === s.userID);
    return owner !== undefined && fullPath(ctx, owner, s.path) === target;
  };
  return links.filter(sameFile).sort(byOwnerThenExpiry).map(view);
}

async function create(ctx: Ctx, user: UserRecord, req: { raw: string; body: ShareCreateBody | undefined }): Promise<Share> {
  requireSharePerm(user);
  const request = shareRequest(req.body);
  // Only existing paths inside the scope, allowed by the rules (api.md §3.15 step 1, §13.12).
  const s = await requireExisting(await ctx.gates.forUser(user, ctx.store.data().settings), req.raw);
  if (request.kind === 'upload') checkUploadLink(user, s.effective.isDirectory());
  const secrets = request.password === '' ? {} : { password_hash: await hashPassword(request.password), token: randomBytes(96).toString('base64url') };
  const expire = request.lifetimeSeconds === 0 ? 0 : ctx.nowSeconds() + request.lifetimeSeconds;
  const link = await ctx.store.update((db) => {
    const created: ShareRecord = { hash: newHash(db), path: canonicalPath(req.raw), userID: user.id, expire, ...secrets, ...kindFields(request) };
    db.shares.push(created);
    return created;
  });
  return view(link);
}

async function byHash(ctx: Ctx, hash: string): Promise<ShareRecord> {
  let link = (await live(ctx)).find((s) => s.hash === hash);
  if (!link) {
    // Another instance may have created it a moment ago (beyond.md §10): ask the store, then look again.
    await ctx.store.refresh({ verify: true });
    link = (await live(ctx)).find((s) => s.hash === hash);
  }
  if (!link) throw new AppError('not_found');
  return structuredClone(link);
}

async function remove(ctx: Ctx, user: UserRecord, rawHash: string): Promise<void> {
  requireSharePerm(user);
  const hash = rawHash.replace(/^\/+|\/+$/gu, '');
  if (hash === '') throw new AppError('bad_request');
  const link = await byHash(ctx, hash);
  if (link.userID !== user.id && !user.perm.admin) throw new AppError('forbidden');
  await ctx.store.update((db) => {
    db.shares = db.shares.filter((s) => s.hash !== hash);
  });
}

async function list(ctx: Ctx, user: UserRecord): Promise<Share[]> {
  requireSharePerm(user);
  const links = await live(ctx);
  return links.filter((s) => user.perm.admin || s.userID === user.id).sort(byOwnerThenExpiry).map(view);
}

/** Creates the shares service. */
export function createSharesService(deps: SharesDeps): SharesService {
  const ctx: Ctx = { ...deps, nowSeconds: () => Math.floor((deps.now ?? Date.now)() / 1000) };
  return {
    list: (user) => list(ctx, user),
    forPath: (user, raw) => forPath(ctx, user, raw),
    create: (user, raw, body) => create(ctx, user, { raw, body }),
    remove: (user, rawHash) => remove(ctx, user, rawHash),
    byHash: (hash) => byHash(ctx, hash),
  };
}
