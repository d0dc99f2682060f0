import { Readable } from 'node:stream';
import { AppError } from '../../errors';
import type { Target } from '../../fs/scope';
import { writeFileAtomic } from '../../fs/write';
import { hookContext } from '../../hooks/context';
import { isWithin } from '../../lib/within';
import { checkConditions, ifListsOf } from './conditions';
import { header, keyOf, modesOf, mountOf, statOrNull, type DavCtx, type DavReply } from './context';
import { hrefOf } from './href';
import { requireParent } from './put';
import { submittedTokens } from './if-header';
import { activeLock } from './live-props';
import type { DavLock, NewLock } from './locks';
import { serializeElement, XML_HEAD } from './xml-render';
import { childOf, DAV_NS, isElement, readXml, type XmlElement } from './xml';

export const DEFAULT_TIMEOUT = 3600;
export const MAX_TIMEOUT = 86_400;

/** `Timeout: Second-N, Infinite` (RFC 4918 §10.7): the first usable value, at most a day. */
export function timeoutOf(value: string | undefined): number {
  for (const part of (value ?? '').split(',')) {
    const v = part.trim().toLowerCase();
    if (v === 'infinite') return MAX_TIMEOUT;
    const m = /^second-(\d+)$/.exec(v);
    if (m?.[1]) return Math.min(MAX_TIMEOUT, Math.max(1, Number(m[1])));
  }
  return DEFAULT_TIMEOUT;
}

function lockDepth(value: string | undefined): '0' | 'infinity' {
  const d = (value ?? 'infinity').trim().toLowerCase();
  if (d === '0' || d === 'infinity') return d;
  throw new AppError('bad_request', 'LOCK takes Depth 0 or infinity');
}

/** The lockinfo of a new lock: scope, write type, owner (RFC 4918 §14.11). */
function parseLockInfo(doc: XmlElement): Pick<NewLock, 'scope' | 'owner'> {
  if (!isElement(doc, DAV_NS, 'lockinfo')) throw new AppError('bad_request', 'expected a DAV:lockinfo element');
  const scope = childOf(doc, DAV_NS, 'lockscope');
  const type = childOf(doc, DAV_NS, 'locktype');
  const exclusive = scope && childOf(scope, DAV_NS, 'exclusive');
  const shared = scope && childOf(scope, DAV_NS, 'shared');
  if (!scope || (!exclusive && !shared) || !type || !childOf(type, DAV_NS, 'write')) throw new AppError('bad_request', 'a write lock needs lockscope and locktype');
  const owner = childOf(doc, DAV_NS, 'owner');
  return { scope: exclusive ? 'exclusive' : 'shared', owner: owner ? serializeElement(owner) : '' };
}

function lockBody(lock: DavLock, rootHref: string): string {
  return `${XML_HEAD}<D:prop xmlns:D="DAV:"><D:lockdiscovery>${activeLock(lock, rootHref, Date.now())}</D:lockdiscovery></D:prop>\n`;
}

const XML_TYPE = { 'content-type': 'application/xml; charset=utf-8' };

/** A LOCK without a body refreshes the lock whose token the `If` header names (RFC 4918 §9.10.2). */
async function refresh(ctx: DavCtx, target: Target, rootHref: string): Promise<DavReply> {
  const { deps, req } = ctx;
  const covering = await deps.locks.covering(keyOf(target));
  const tokens = submittedTokens(ifListsOf(ctx));
  const mine = covering.find((l) => tokens.has(l.token) && l.userId === req.user.id);
  if (!mine) throw new AppError('precondition_failed');
  const lock = await deps.locks.refresh(mine.token, timeoutOf(header(req, 'timeout')));
  if (!lock) throw new AppError('precondition_failed');
  const rel = target.real.slice(lock.key.length);
  const root = rel === '' ? rootHref : hrefOf(mountOf(deps), target.path.slice(0, target.path.length - rel.length) || '/', true);
  return { status: 200, headers: XML_TYPE, body: lockBody(lock, root) };
}

/**
 * LOCK (RFC 4918 §9.10): exclusive or shared write locks, Depth 0 or infinity, Timeout at most a
 * day; an unmapped name becomes an empty file (201, needs `create`), an existing resource needs
 * `modify`; a conflicting lock answers 423.
 */
export async function lockResource(ctx: DavCtx): Promise<DavReply> {
  const { deps, req } = ctx;
  const target = await req.gate.resolve(req.path, 'write');
  const doc = await readXml(req.body, header(req, 'content-length'));
  const s = await statOrNull(target);
  const rootHref = hrefOf(mountOf(deps), target.path, s?.effective.isDirectory() === true);
  if (!doc) return refresh(ctx, target, rootHref);
  const info = parseLockInfo(doc);
  const depth = lockDepth(header(req, 'depth'));
  if (!(s ? req.user.perm.modify : req.user.perm.create)) throw new AppError('forbidden');
  if (!s) await requireParent(ctx, target);
  await checkConditions(ctx, target, s ? [] : [{ target, member: true }]);
  const wanted: NewLock = { ...info, key: keyOf(target), depth, userId: req.user.id, timeoutSeconds: timeoutOf(header(req, 'timeout')) };
  const create = async (): Promise<void> => {
    if (await statOrNull(target)) return;
    const empty = Readable.from([]);
    await deps.hooks.around('upload', hookContext(req.gate, req.user, { file: target }), () => writeFileAtomic(target, empty, modesOf(deps)));
  };
  const lock = await deps.locks.take(wanted, s ? undefined : create);
  if (!lock) throw new AppError('locked');
  return { status: s ? 200 : 201, headers: { ...XML_TYPE, 'lock-token': `<${lock.token}>` }, body: lockBody(lock, rootHref) };
}

/** UNLOCK (RFC 4918 §9.11): the token of a lock on the resource, taken by this user; 204. */
export async function unlockResource(ctx: DavCtx): Promise<DavReply> {
  const { deps, req } = ctx;
  const m = /^\s*<([^>]+)>\s*$/.exec(header(req, 'lock-token') ?? '');
  if (!m?.[1]) throw new AppError('bad_request', 'missing or malformed Lock-Token header');
  const target = await req.gate.resolve(req.path);
  const lock = await deps.locks.get(m[1]);
  const key = keyOf(target);
  if (!lock || !(lock.key === key || (lock.depth === 'infinity' && isWithin(lock.key, key)))) throw new AppError('exists', 'no such lock on this resource');
  if (lock.userId !== req.user.id) throw new AppError('forbidden');
  await deps.locks.remove(lock.token);
  return { status: 204 };
}
