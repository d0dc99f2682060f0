import type { BigIntStats } from 'node:fs';
import { Readable } from 'node:stream';
import { AppError } from '../../errors';
import { isWithin } from '../../lib/within';
import { statTarget } from '../../fs/info';
import { isVisible, listContext, readNames, statEntry, STAT_CHUNK, type ListContext } from '../../fs/listing';
import { joinPath } from '../../fs/paths';
import { header, keyOf, mountOf, statOrNull, type DavCtx, type DavReply } from './context';
import type { DeadProperty } from './dead-props';
import { hrefOf } from './href';
import { checkConditions } from './conditions';
import { isLiveProp, liveProp, LIVE_PROPS, type LockView, type Resource } from './live-props';
import type { DavLock } from './locks';
import { quotaProps } from './quota-props';
import { emptyElement, errorBody, MULTISTATUS_CLOSE, MULTISTATUS_OPEN, multistatusOf, renderEntry, type PropStat } from './xml-render';
import { DAV_NS, elementsOf, isElement, readXml, type XmlElement } from './xml';

interface PropName {
  ns: string;
  name: string;
}

/** What a PROPFIND asks for (RFC 4918 §9.1). */
export type PropfindQuery = { mode: 'prop'; names: PropName[] } | { mode: 'allprop'; include: PropName[] } | { mode: 'propname' };

/** More names than any client asks for would make a large listing quadratic: refused. */
const MAX_NAMES = 1000;

function namesIn(el: XmlElement): PropName[] {
  const names = elementsOf(el).map((c) => ({ ns: c.ns, name: c.name }));
  if (names.length > MAX_NAMES) throw new AppError('bad_request', `at most ${MAX_NAMES} properties per request`);
  return names;
}

/** Reads a propfind body: none is allprop; anything but a DAV:propfind with prop, allprop or propname is 400. */
export function parsePropfind(doc: XmlElement | undefined): PropfindQuery {
  if (!doc) return { mode: 'allprop', include: [] };
  if (!isElement(doc, DAV_NS, 'propfind')) throw new AppError('bad_request', 'expected a DAV:propfind element');
  const kids = elementsOf(doc);
  const prop = kids.find((k) => isElement(k, DAV_NS, 'prop'));
  if (prop) return { mode: 'prop', names: namesIn(prop) };
  if (kids.some((k) => isElement(k, DAV_NS, 'propname'))) return { mode: 'propname' };
  if (kids.some((k) => isElement(k, DAV_NS, 'allprop'))) {
    const include = kids.find((k) => isElement(k, DAV_NS, 'include'));
    return { mode: 'allprop', include: include ? namesIn(include) : [] };
  }
  throw new AppError('bad_request', 'propfind needs prop, allprop or propname');
}

function propstats(found: string[], missing: string[]): PropStat[] {
  return [{ status: 200, props: found }, { status: 404, props: missing }];
}

/** The propstats of one resource for the query. */
function describeResource(r: Resource, q: PropfindQuery, deps: { dead: readonly DeadProperty[]; lockView: () => LockView }): PropStat[] {
  const found: string[] = [];
  const missing: string[] = [];
  if (q.mode === 'propname') {
    for (const name of LIVE_PROPS) if (liveProp(name, r, deps.lockView) !== undefined) found.push(`<D:${name}/>`);
    for (const p of deps.dead) found.push(emptyElement(p.ns, p.name));
    return propstats(found, missing);
  }
  if (q.mode === 'allprop') {
    for (const name of LIVE_PROPS) {
      const v = liveProp(name, r, deps.lockView);
      if (v !== undefined) found.push(v);
    }
    for (const p of deps.dead) found.push(p.xml);
    return propstats(found, missing);
  }
  for (const { ns, name } of q.names) {
    const v = isLiveProp(ns, name) ? liveProp(name, r, deps.lockView) : deps.dead.find((p) => p.ns === ns && p.name === name)?.xml;
    if (v === undefined) missing.push(emptyElement(ns, name));
    else found.push(v);
  }
  return propstats(found, missing);
}

/** Where each lock was taken, as seen from a resource the lock covers. */
function lockViewOf(r: Resource, all: readonly DavLock[], mount: string): LockView {
  const locks = all.filter((l) => l.key === r.key || (l.depth === 'infinity' && isWithin(l.key, r.key)));
  const rootHref = (l: DavLock): string => {
    const rel = r.key.slice(l.key.length);
    const rootPath = r.path.slice(0, r.path.length - rel.length) || '/';
    return hrefOf(mount, rootPath, rootPath !== r.path || r.stat.isDirectory());
  };
  return { locks, rootHref, now: Date.now() };
}

/** The visible children of a folder, stat'ed a chunk at a time (yielding to the event loop between chunks). */
async function* childChunks(ctx: ListContext, dir: Resource, names: readonly string[]): AsyncGenerator<Resource[]> {
  // The folder's href is encoded once; each child adds its encoded name.
  const base = dir.href;
  for (let i = 0; i < names.length; i += STAT_CHUNK) {
    if (i > 0) await new Promise((resolve) => setImmediate(resolve));
    const out: Resource[] = [];
    for (const name of names.slice(i, i + STAT_CHUNK)) {
      const entry = statEntry(ctx, name);
      const path = joinPath(dir.path, name);
      let stat: BigIntStats | null = entry.own;
      if (stat?.isSymbolicLink()) stat = await linkedStat(ctx, path);
      if (stat) out.push({ path, href: `${base}${encodeURIComponent(name)}${stat.isDirectory() ? '/' : ''}`, stat, key: joinPath(ctx.dirReal, name) });
    }
    yield out;
  }
}

/** Folders with more entries than this answer as a stream: memory stays bounded (no Content-Length then). */
const STREAM_ABOVE = 2000;

async function* streamed(first: string, chunks: AsyncGenerator<Resource[]>, render: (r: Resource) => string): AsyncGenerator<string> {
  yield MULTISTATUS_OPEN + first;
  for await (const chunk of chunks) yield chunk.map(render).join('');
  yield MULTISTATUS_CLOSE;
}

/** A symlink's target, when the gate lets it be followed; null leaves it out. */
async function linkedStat(ctx: ListContext, path: string): Promise<BigIntStats | null> {
  try {
    const t = await ctx.gate.resolve(path, 'read', { unchecked: true });
    const s = await statTarget(t);
    return s.dangling ? null : s.effective;
  } catch {
    return null;
  }
}

const XML_TYPE = { 'content-type': 'application/xml; charset=utf-8' };

function depthOf(value: string | undefined): '0' | '1' | 'infinity' {
  const d = (value ?? '1').trim().toLowerCase();
  if (d === '0' || d === '1' || d === 'infinity') return d;
  throw new AppError('bad_request', 'Depth must be 0, 1 or infinity');
}

/**
 * PROPFIND (RFC 4918 §9.1): Depth 0 or 1 (a missing Depth is 1, as most servers read it);
 * infinity answers 403 with propfind-finite-depth. Files need the download permission.
 */
export async function propfind({ deps, req }: DavCtx): Promise<DavReply> {
  const depth = depthOf(header(req, 'depth'));
  if (depth === 'infinity') return { status: 403, headers: XML_TYPE, body: errorBody('propfind-finite-depth') };
  // The path first: a path the rules deny answers 403/404 whatever the body says.
  const target = await req.gate.resolve(req.path);
  const query = parsePropfind(await readXml(req.body, header(req, 'content-length')));
  const s = await statOrNull(target);
  if (!s) throw new AppError('not_found');
  if (!s.effective.isDirectory() && !req.user.perm.download) throw new AppError('forbidden');
  await checkConditions({ deps, req }, target, []);
  const mount = mountOf(deps);
  const isDir = s.effective.isDirectory();
  const self: Resource = { path: target.path, href: hrefOf(mount, target.path, isDir), stat: s.effective, key: keyOf(target) };
  const locks = await deps.locks.within('/');
  const quota = await quotaProps(deps, req.user, query);
  const deadOf = (r: Resource): readonly DeadProperty[] => (quota.length > 0 && r.stat.isDirectory() ? [...deps.props.of(r.key), ...quota] : deps.props.of(r.key));
  const render = (r: Resource): string => renderEntry({ href: r.href, propstats: describeResource(r, query, { dead: deadOf(r), lockView: () => lockViewOf(r, locks, mount) }) });
  let rendered = render(self);
  if (depth === '1' && isDir) {
    // A listing needs only a signed-in user (beyond.md §1), as GET /api/resources of a folder.
    const ctx = await listContext(req.gate, target, { modify: false, sniff: 'off' });
    const names = (await readNames(ctx.dir)).filter((n) => isVisible(ctx, n));
    const chunks = childChunks(ctx, self, names);
    if (names.length > STREAM_ABOVE) return { status: 207, headers: XML_TYPE, body: Readable.from(streamed(rendered, chunks, render)) };
    for await (const chunk of chunks) for (const r of chunk) rendered += render(r);
  }
  return { status: 207, headers: XML_TYPE, body: multistatusOf(rendered) };
}
