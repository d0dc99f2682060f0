import type { BigIntStats } from 'node:fs';
import { AppError } from '../../errors';
import { statTarget } from '../../fs/info';
import { parentPath } from '../../fs/paths';
import type { Target } from '../../fs/scope';
import { etagOf } from '../../fs/stat-format';
import { setModified } from '../../fs/times';
import { declaredLength, writeUnderQuota } from '../../quota/admit';
import { discardFile, writeFileAtomic } from '../../fs/write';
import { hookContext } from '../../hooks/context';
import { checkConditions, ifListsOf } from './conditions';
import { submittedTokens } from './if-header';
import { header, keyOf, modesOf, statOrNull, type DavCtx, type DavReply } from './context';

/** `X-OC-Mtime: <unix seconds>` (ownCloud, rclone): undefined when absent, 400 when not a number. */
function ocMtime(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value.trim());
  if (value.trim() === '' || !Number.isFinite(n) || Math.abs(n) > 253402300799) throw new AppError('bad_request', 'invalid X-OC-Mtime');
  return n;
}

/** RFC 9110 §13.1.1-2 on a write: If-Match (a current tag, or * for an existing file) and If-None-Match: *. */
function checkMatch(ctx: DavCtx, etag: string | undefined): void {
  const match = header(ctx.req, 'if-match')?.trim();
  const noneMatch = header(ctx.req, 'if-none-match')?.trim();
  if (noneMatch === '*' && etag !== undefined) throw new AppError('precondition_failed');
  if (match === undefined) return;
  const tags = match.split(',').map((t) => t.trim());
  if (etag === undefined || (!tags.includes('*') && !tags.includes(etag))) throw new AppError('precondition_failed');
}

/** True when an empty file is locked by this user with a token the request submits. */
async function ownLockNull(ctx: DavCtx, target: Target, size: bigint): Promise<boolean> {
  if (size !== 0n) return false;
  const tokens = submittedTokens(ifListsOf(ctx));
  if (tokens.size === 0) return false;
  const locks = await ctx.deps.locks.covering(keyOf(target));
  return locks.some((l) => l.key === keyOf(target) && l.userId === ctx.req.user.id && tokens.has(l.token));
}

/** 409 unless the parent of `target` is an existing collection (RFC 4918 §9.7.1, §9.3.1). */
export async function requireParent(ctx: DavCtx, target: Target): Promise<void> {
  const parent = await ctx.req.gate.resolve(parentPath(target.path), 'read', { unchecked: true });
  const s = await statOrNull(parent);
  if (!s?.effective.isDirectory()) throw new AppError('exists', 'the parent collection does not exist');
}

/**
 * PUT (RFC 4918 §9.7): the body (Content-Length or chunked) streams through the durable write
 * and the upload (new) or save (replace) hooks; a new name needs `create`, a file `modify`.
 */
export async function putResource(ctx: DavCtx): Promise<DavReply> {
  const { deps, req } = ctx;
  if (header(req, 'content-range') !== undefined) throw new AppError('bad_request', 'partial PUT is not supported');
  const mtime = ocMtime(header(req, 'x-oc-mtime'));
  const target = await req.gate.resolve(req.path, 'write');
  const before = await statOrNull(target);
  if (before?.effective.isDirectory() || req.path.endsWith('/')) throw new AppError('method_not_allowed', undefined, { allow: 'OPTIONS, PROPFIND, PROPPATCH, DELETE, COPY, MOVE, LOCK, UNLOCK' });
  // The first PUT into an empty file this user's LOCK created (Finder and Windows lock a new name
  // first) is still the upload of a new file: `create` is enough, and the upload hooks run.
  const fresh = !before || (await ownLockNull(ctx, target, before.effective.size));
  if (!(fresh ? req.user.perm.create : req.user.perm.modify)) throw new AppError('forbidden');
  await requireParent(ctx, target);
  await checkConditions(ctx, target, [{ target, member: !before }]);
  checkMatch(ctx, before ? etagOf(before.effective) : undefined);
  if (before) await deps.previews?.invalidate(target.lexical);
  let written: BigIntStats | undefined;
  const under = { user: req.user, real: target.resolved, length: declaredLength(req.headers['content-length']), body: req.body };
  const write = (): Promise<BigIntStats> => writeUnderQuota(deps.quota, under, async (body) => (written = await writeFileAtomic(target, body, modesOf(deps))));
  try {
    await deps.hooks.around(fresh ? 'upload' : 'save', hookContext(req.gate, req.user, { file: target }), write);
  } catch (err) {
    // A new file whose after-hook failed is removed, as the API's upload does (api.md §3.6 step 5).
    if (!before && written) await discardFile(target, written);
    throw err;
  }
  const headers: Record<string, string> = {};
  if (mtime !== undefined) {
    await setModified(target, mtime);
    headers['x-oc-mtime'] = 'accepted';
  }
  headers.etag = etagOf((await statTarget(target)).effective);
  return { status: before ? 204 : 201, headers };
}
