import { AppError } from '../../errors';
import { cleanPath } from '../../fs/paths';
import type { PathGate, Target } from '../../fs/scope';
import { walk } from '../../fs/walk';
import { makeDirectory, removeTree } from '../../fs/write';
import { hookContext } from '../../hooks/context';
import { isWithin } from '../../lib/within';
import { checkConditions } from './conditions';
import { header, keyOf, modesOf, statOrNull, type DavCtx, type DavDeps, type DavReply } from './context';
import { requireParent } from './put';

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

/** §6.3 of api.md: with rules, every path below `target` must be allowed (dotfiles aside), else 403. */
export async function checkDescendants(gate: PathGate, target: Target, mapped?: (path: string) => string): Promise<void> {
  if (!gate.hasRules) return;
  const ok = (p: string): boolean => gate.descendantAllows(p) && (mapped === undefined || gate.descendantAllows(mapped(p)));
  if (!ok(target.path)) throw new AppError('forbidden');
  for await (const e of walk(gate, target, { unchecked: true })) {
    if (!ok(e.path)) throw new AppError('forbidden');
  }
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
  await deps.hooks.around('delete', hookContext(req.gate, req.user, { file: target }), () => removeTree(target, (p) => req.gate.guards(p)));
  await forgetResource(deps, target, req.user.id);
  return { status: 204 };
}
