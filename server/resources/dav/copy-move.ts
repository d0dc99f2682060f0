import { AppError } from '../../errors';
import { copyUnderQuota } from '../../quota/admit';
import { copyTree, moveTree } from '../../fs/copy-move';
import { cleanPath } from '../../fs/paths';
import type { Target } from '../../fs/scope';
import { makeDirectory, removeTree } from '../../fs/write';
import { hookContext } from '../../hooks/context';
import { isWithin } from '../../lib/within';
import { checkConditions } from './conditions';
import { header, keyOf, modesOf, statOrNull, type DavCtx, type DavReply } from './context';
import { destinationPath } from './href';
import { requireParent } from './put';
import { checkDescendants } from '../../fs/descendants';
import { forgetResource } from './write-ops';

interface Plan {
  src: Target;
  dst: Target;
  /** Something was at the destination (and is replaced). */
  replaces: boolean;
  depth: '0' | 'infinity';
}

/** `Overwrite` (RFC 4918 §10.6): T (the default) or F. */
function overwriteOf(value: string | undefined): boolean {
  const v = (value ?? 'T').trim().toUpperCase();
  if (v !== 'T' && v !== 'F') throw new AppError('bad_request', 'Overwrite must be T or F');
  return v === 'T';
}

function depthOf(value: string | undefined, move: boolean): '0' | 'infinity' {
  const d = (value ?? 'infinity').trim().toLowerCase();
  if (d === 'infinity' || (d === '0' && !move)) return d;
  throw new AppError('bad_request', move ? 'MOVE takes Depth: infinity' : 'COPY takes Depth 0 or infinity');
}

async function plan(ctx: DavCtx, move: boolean): Promise<Plan> {
  const { req, deps } = ctx;
  const depth = depthOf(header(req, 'depth'), move);
  const overwrite = overwriteOf(header(req, 'overwrite'));
  const src = await req.gate.resolve(req.path, move ? 'write' : 'read');
  const dst = await req.gate.resolve(destinationPath(header(req, 'destination'), { host: header(req, 'host'), baseURL: deps.baseURL }), 'write');
  const srcStat = await statOrNull(src);
  if (!srcStat) throw new AppError('not_found');
  if (src.path === '/' || dst.path === '/' || src.path === dst.path) throw new AppError('forbidden');
  // Into itself, or over one of its own ancestors: either would destroy the source.
  if (isWithin(dst.path, src.path) || (isWithin(src.path, dst.path) && srcStat.effective.isDirectory())) throw new AppError('forbidden');
  await requireParent(ctx, dst);
  const replaces = (await statOrNull(dst)) !== null;
  if (replaces && !overwrite) throw new AppError('precondition_failed');
  if (replaces && !req.user.perm.modify) throw new AppError('forbidden');
  return { src, dst, replaces, depth };
}

/** Maps a path below src to the corresponding path below dst. */
function rebase(p: Plan): (path: string) => string {
  return (path) => cleanPath(`${p.dst.path}/${path.slice(p.src.path.length)}`);
}

/** Removes what the destination held (Overwrite: T deletes it first, RFC 4918 §9.8.4, §9.9.3). */
async function clearDestination(ctx: DavCtx, p: Plan): Promise<void> {
  if (!p.replaces) return;
  await removeTree(p.dst, (real) => ctx.req.gate.guards(real));
  await forgetResource(ctx.deps, p.dst, ctx.req.user.id);
}

/** COPY (RFC 4918 §9.8): Depth 0 or infinity; needs `create` (and `modify` to replace); 201 or 204. */
export async function copyResource(ctx: DavCtx): Promise<DavReply> {
  const { deps, req } = ctx;
  if (!req.user.perm.create) throw new AppError('forbidden');
  const p = await plan(ctx, false);
  const isDir = (await statOrNull(p.src))?.effective.isDirectory() === true;
  if (isDir && p.depth === 'infinity') await checkDescendants(req.gate, p.src, rebase(p));
  await checkConditions(ctx, p.src, [{ target: p.dst, deep: true, member: true }]);
  const modes = modesOf(deps);
  // The destination is cleared inside the operation: a before_copy hook that refuses leaves it whole.
  const copy = async (): Promise<void> => {
    await clearDestination(ctx, p);
    await (isDir && p.depth === '0' ? makeDirectory(p.dst, modes.dirMode) : copyTree(req.gate, p, modes));
  };
  const sides = { user: req.user, src: isDir && p.depth === '0' ? '' : p.src.resolved, dst: p.dst.resolved };
  await deps.hooks.around('copy', hookContext(req.gate, req.user, { file: p.src, destination: p.dst }), () => copyUnderQuota(deps.quota, sides, copy));
  await deps.props.copy(keyOf(p.src), keyOf(p.dst), { shallow: p.depth === '0' });
  return { status: p.replaces ? 204 : 201 };
}

/** MOVE (RFC 4918 §9.9): a rename of the tree; needs `rename` (and `modify` to replace); locks stay behind. */
export async function moveResource(ctx: DavCtx): Promise<DavReply> {
  const { deps, req } = ctx;
  if (!req.user.perm.rename) throw new AppError('forbidden');
  const p = await plan(ctx, true);
  await checkDescendants(req.gate, p.src, rebase(p));
  await checkConditions(ctx, p.src, [{ target: p.src, deep: true, member: true }, { target: p.dst, deep: true, member: true }]);
  await deps.previews?.invalidate(p.src.lexical);
  const move = async (): Promise<void> => {
    await clearDestination(ctx, p);
    await moveTree(req.gate, p, modesOf(deps));
  };
  await deps.hooks.around('rename', hookContext(req.gate, req.user, { file: p.src, destination: p.dst }), move);
  await deps.props.move(keyOf(p.src), keyOf(p.dst));
  await deps.locks.removeWithin(keyOf(p.src));
  return { status: p.replaces ? 204 : 201 };
}
