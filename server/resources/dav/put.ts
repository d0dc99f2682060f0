import type { BigIntStats } from 'node:fs';
import { AppError } from '../../errors';
import { statTarget } from '../../fs/info';
import { parentPath } from '../../fs/paths';
import type { Target } from '../../fs/scope';
import { etagOf } from '../../fs/stat-format';
import { setModified } from '../../fs/times';
import { discardFile, writeFileAtomic } from '../../fs/write';
import { hookContext } from '../../hooks/context';
import { checkConditions } from './conditions';
import { header, modesOf, statOrNull, type DavCtx, type DavReply } from './context';

/** `X-OC-Mtime: <unix seconds>` (ownCloud, rclone): undefined when absent, 400 when not a number. */
function ocMtime(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value.trim());
  if (value.trim() === '' || !Number.isFinite(n) || Math.abs(n) > 253402300799) throw new AppError('bad_request', 'invalid X-OC-Mtime');
  return n;
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
  if (!(before ? req.user.perm.modify : req.user.perm.create)) throw new AppError('forbidden');
  await requireParent(ctx, target);
  await checkConditions(ctx, target, [{ target, member: !before }]);
  if (before) await deps.previews?.invalidate(target.lexical);
  let written: BigIntStats | undefined;
  const write = async (): Promise<BigIntStats> => (written = await writeFileAtomic(target, req.body, modesOf(deps)));
  try {
    await deps.hooks.around(before ? 'save' : 'upload', hookContext(req.gate, req.user, { file: target }), write);
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
