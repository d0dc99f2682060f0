import { AppError } from '../../errors';
import { parentPath } from '../../fs/paths';
import type { Target } from '../../fs/scope';
import { etagOf } from '../../fs/stat-format';
import { header, keyOf, statOrNull, type DavCtx } from './context';
import { locate } from './href';
import { evaluateIf, parseIf, submittedTokens, type IfList, type ResourceState } from './if-header';
import type { DavLock } from './locks';

/** A resource a write touches, and how: its own locks always count. */
export interface Affected {
  target: Target;
  /** Locks anywhere below it count too (DELETE, MOVE, a COPY or MOVE that replaces a tree). */
  deep?: boolean;
  /** The request adds or removes it as a member of its parent: the parent's locks count too. */
  member?: boolean;
}

const NO_STATE: ResourceState = { etag: undefined, tokens: new Set() };

async function stateOf(ctx: DavCtx, target: Target): Promise<ResourceState> {
  const s = await statOrNull(target);
  const locks = await ctx.deps.locks.covering(keyOf(target));
  return { etag: s ? etagOf(s.effective) : undefined, tokens: new Set(locks.map((l) => l.token)) };
}

/** The state of a list's resource: the request URI, or a tagged URL of this mount, by its path (others match nothing). */
async function taggedState(ctx: DavCtx, self: Target, resource: string | undefined): Promise<ResourceState> {
  if (resource === undefined) return stateOf(ctx, self);
  try {
    // A client behind a proxy that rewrites Host still names its resources by their path.
    const where = locate(resource, { host: header(ctx.req, 'host'), baseURL: ctx.deps.baseURL, anyHost: true });
    if (where.kind !== 'path') return NO_STATE;
    return await stateOf(ctx, await ctx.req.gate.resolve(where.path));
  } catch {
    return NO_STATE;
  }
}

/** Locks that bind the write on one affected resource. */
async function bindingLocks(ctx: DavCtx, a: Affected): Promise<DavLock[]> {
  const { locks } = ctx.deps;
  const key = keyOf(a.target);
  const found = [...(await locks.covering(key)), ...(a.deep ? await locks.within(key) : [])];
  if (a.member && a.target.path !== '/') {
    const parent = await ctx.req.gate.resolve(parentPath(a.target.path), 'read', { unchecked: true });
    found.push(...(await locks.covering(keyOf(parent))));
  }
  return [...new Map(found.map((l) => [l.token, l])).values()];
}

/**
 * RFC 4918 §7: a write needs, for every exclusive lock on what it touches, that lock's token in
 * the `If` header (submitted by the user who took it); shared locks need one of theirs.
 */
function assertTokens(locks: readonly DavLock[], tokens: ReadonlySet<string>, userId: number): void {
  const held = (l: DavLock): boolean => tokens.has(l.token) && l.userId === userId;
  if (locks.some((l) => l.scope === 'exclusive' && !held(l))) throw new AppError('locked');
  const shared = locks.filter((l) => l.scope === 'shared');
  if (shared.length > 0 && !shared.some(held)) throw new AppError('locked');
}

/** The parsed `If` header of the request (400 when malformed). */
export function ifListsOf(ctx: DavCtx): IfList[] | undefined {
  return parseIf(header(ctx.req, 'if'));
}

/**
 * The preconditions of a write: first the `If` header as RFC 4918 §10.4 evaluates it (412 when no
 * list holds), then the locks (423 when a needed token was not submitted, e.g. a corrupted one
 * beside `(Not <DAV:no-lock>)`). `self` is the request URI's resource.
 */
export async function checkConditions(ctx: DavCtx, self: Target, affected: readonly Affected[]): Promise<void> {
  const lists = ifListsOf(ctx);
  if (lists && !(await evaluateIf(lists, (resource) => taggedState(ctx, self, resource)))) throw new AppError('precondition_failed');
  const tokens = submittedTokens(lists);
  for (const a of affected) assertTokens(await bindingLocks(ctx, a), tokens, ctx.req.user.id);
}
