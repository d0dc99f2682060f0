import type { ResourcePatchQuery } from '../../contract/resource';
import { AppError } from '../../errors';
import { copyUnderQuota } from '../../quota/admit';
import { copyTree, moveTree } from '../../fs/copy-move';
import { identityOf } from '../../fs/info';
import { baseName, canonicalPath, cleanPath, joinPath, numberedName, parentPath } from '../../fs/paths';
import { isWithin } from '../../lib/within';
import type { PathGate, Target } from '../../fs/scope';
import type { UserRecord } from '../../state/schema';
import { checkDescendants } from '../../fs/descendants';
import { hookContext } from '../../hooks/context';
import { gateOf, modesOf, type ResourcesDeps } from './context';
import { extractResource } from './extract';

type Action = 'copy' | 'rename';

/** The second, query-style decoding of `destination` the UI relies on (§3.9 step 1, §13.3). */
export function decodeDestination(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    throw new AppError('bad_request', 'invalid destination');
  }
}

/** `name(1).ext`, `name(2).ext`, ...: the first free name beside `dst` (§3.9 step 6). */
async function freeName(gate: PathGate, dst: Target): Promise<Target> {
  const dir = parentPath(dst.path);
  for (let n = 1; ; n++) {
    const next = await gate.resolve(joinPath(dir, numberedName(baseName(dst.path), n)), 'write');
    if ((await identityOf(next)) === null) return next;
  }
}

interface Plan {
  action: Action;
  src: Target;
  dst: Target;
}

/** A PATCH request: the source path and the query. */
export interface PatchRequest {
  raw: string;
  query: ResourcePatchQuery;
}

async function plan(deps: ResourcesDeps, user: UserRecord, { raw, query: q }: PatchRequest): Promise<{ gate: PathGate; plan: Plan }> {
  const action = q.action;
  if (action !== 'copy' && action !== 'rename') throw new AppError('bad_request', `unsupported action ${action ?? ''}: invalid request params`);
  const gate = await gateOf(deps, user);
  const src = await gate.resolve(raw, 'write');
  let dst = await gate.resolve(canonicalPath(decodeDestination(q.destination ?? '')), 'write');
  if (src.path === '/' || dst.path === '/') throw new AppError('forbidden');
  if (dst.path !== src.path && isWithin(src.path, dst.path)) throw new AppError('bad_request', 'source is parent');
  const [srcId, dstId] = await Promise.all([identityOf(src), identityOf(dst)]);
  if (srcId === null) throw new AppError('not_found');
  const same = srcId === dstId;
  if (!(action === 'rename' && same) && dstId !== null) {
    if (q.override !== 'true' && q.rename !== 'true') throw new AppError('exists');
    if (q.rename === 'true') dst = await freeName(gate, dst);
    else if (!user.perm.modify) throw new AppError('forbidden');
  }
  return { gate, plan: { action, src, dst } };
}

/** Maps a path below src to the corresponding path below dst. */
function rebase(p: Plan): (path: string) => string {
  return (path) => cleanPath(`${p.dst.path}/${path.slice(p.src.path.length)}`);
}

/**
 * PATCH /api/resources{src}?action=copy|rename (§3.9), or extract (extract.ts): permission, rule and descendant checks,
 * then the copy or move between the `copy`/`rename` hooks.
 */
export async function patchResource(deps: ResourcesDeps, user: UserRecord, req: PatchRequest): Promise<void> {
  if (req.query.action === 'extract') return extractResource(deps, user, req);
  const { gate, plan: p } = await plan(deps, user, req);
  if (p.action === 'copy' && !user.perm.create) throw new AppError('forbidden');
  if (p.action === 'rename' && !user.perm.rename) throw new AppError('forbidden');
  if (p.src.path === p.dst.path && p.action === 'copy') throw new AppError('bad_request', 'cannot copy onto itself');
  await checkDescendants(gate, p.src, rebase(p));
  const modes = modesOf(deps);
  const ctx = hookContext(gate, user, { file: p.src, destination: p.dst });
  if (p.action === 'copy') {
    const sides = { user, src: p.src.resolved, dst: p.dst.resolved };
    await deps.hooks.around('copy', ctx, () => copyUnderQuota(deps.quota, sides, () => copyTree(gate, p, modes)));
    return;
  }
  await deps.previews?.invalidate(p.src.lexical);
  await deps.hooks.around('rename', ctx, () => moveTree(gate, p, modes));
}
