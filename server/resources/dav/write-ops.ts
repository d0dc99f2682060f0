import { AppError } from '../../errors';
import { cleanPath } from '../../fs/paths';
import type { Target } from '../../fs/scope';
import { makeDirectory, removeTree } from '../../fs/write';
import { hookContext } from '../../hooks/context';
import { isWithin } from '../../lib/within';
import { checkConditions } from './conditions';
import { header, keyOf, modesOf, statOrNull, type DavCtx, type DavDeps, type DavReply } from './context';
import { requireParent } from './put';
import { checkDescendants } from '../../fs/descendants';

/** True when the request carries a body (MKCOL with one answers 415, RFC 4918 §9.3). */
function hasBody(ctx: DavCtx): boolean {
  const length = header(ctx.req, 'content-length');
  return header(ctx.req, 'transfer-encoding') !== undefined || (length !== undefined && length.trim() !== '0');
}

/** MKCOL (RFC 4918 §9.3): 201, 405 when something is there, 409 without a parent; needs `create`. */
export async function mkcol(ctx: DavCtx): Promise<DavReply> {
  const { deps, req } = ctx;
  if (hasBody(ctx)) throw new AppError('unsupported_media_type');
  const target = await req.gate.resolve(req.path, 'write');
  if (!req.user.perm.create) throw new AppError('forbidden');
  if (await statOrNull(target)) throw new AppError('method_not_allowed', undefined, { allow: 'OPTIONS, PROPFIND, PROPPATCH, DELETE, COPY, MOVE, LOCK, UNLOCK' });
  await requireParent(ctx, target);
  await checkConditions(ctx, target, [{ target, member: true }]);
  await deps.hooks.around('upload', hookContext(req.gate, req.user, { file: target }), () => makeDirectory(target, modesOf(deps).dirMode));
  return { status: 201 };
}

/** What goes with a resource that is gone: its dead properties, its locks, the user's shares of it. */
export async function forgetResource(deps: DavDeps, target: Target, userId: number): Promise<void> {
  await deps.props.drop(keyOf(target));
  await deps.locks.removeWithin(keyOf(target));
  await deps.previews?.invalidate(target.lexical);
  const below = (p: string): boolean => isWithin(target.path, cleanPath(p));
  if (!deps.store.data().shares.some((s) => s.userID === userId && below(s.path))) return;
  await deps.store.update((db) => {
    db.shares = db.shares.filter((s) => s.userID !== userId || !below(s.path));
  });
}

/** DELETE (RFC 4918 §9.6): the resource and everything below it; needs `delete`; 204. */
export async function deleteResource(ctx: DavCtx): Promise<DavReply> {
  const { deps, req } = ctx;
  const target = await req.gate.resolve(req.path, 'write');
  if (target.path === '/' || !req.user.perm.delete) throw new AppError('forbidden');
  const s = await statOrNull(target);
  if (!s) throw new AppError('not_found');
  if (s.own.isDirectory()) await checkDescendants(req.gate, target);
  await checkConditions(ctx, target, [{ target, deep: true, member: true }]);
  // Into the recycle bin while it is on, as DELETE /api/resources does (beyond.md §3).
  const remove = (): Promise<unknown> => (deps.trash?.isEnabled() ? deps.trash.moveToTrash(req.user, req.gate, target) : removeTree(target, (p) => req.gate.guards(p)));
  await deps.hooks.around('delete', hookContext(req.gate, req.user, { file: target }), remove);
  await forgetResource(deps, target, req.user.id);
  return { status: 204 };
}
