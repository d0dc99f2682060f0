import { AppError } from '../../errors';
import { setModified } from '../../fs/times';
import { checkConditions } from './conditions';
import { header, keyOf, mountOf, statOrNull, type DavCtx, type DavReply } from './context';
import type { PropOp } from './dead-props';
import { hrefOf } from './href';
import { isLiveProp } from './live-props';
import { emptyElement, multistatus, serializeElement, type PropStat } from './xml-render';
import { DAV_NS, elementsOf, isElement, readXml, textOf, type XmlElement } from './xml';

/** Windows' Explorer sends the file time as a dead property of this namespace. */
const MS_NS = 'urn:schemas-microsoft-com:';

interface Instruction {
  op: PropOp;
  el: XmlElement;
}

/** The set/remove instructions of a propertyupdate, in document order (RFC 4918 §9.2). */
export function parsePropertyUpdate(doc: XmlElement | undefined): Instruction[] {
  if (!doc || !isElement(doc, DAV_NS, 'propertyupdate')) throw new AppError('bad_request', 'expected a DAV:propertyupdate element');
  const out: Instruction[] = [];
  for (const action of elementsOf(doc)) {
    const set = isElement(action, DAV_NS, 'set');
    if (!set && !isElement(action, DAV_NS, 'remove')) continue;
    for (const prop of elementsOf(action).filter((e) => isElement(e, DAV_NS, 'prop'))) {
      for (const el of elementsOf(prop)) {
        const op: PropOp = set ? { op: 'set', prop: { ns: el.ns, name: el.name, xml: serializeElement(el) } } : { op: 'remove', ns: el.ns, name: el.name };
        out.push({ op, el });
      }
    }
  }
  if (out.length === 0) throw new AppError('bad_request', 'propertyupdate holds no property');
  return out;
}

/** The file time a Win32LastModifiedTime value names (an RFC 1123 date), in unix seconds. */
function win32Time(el: XmlElement): number | undefined {
  if (el.ns !== MS_NS || el.name !== 'Win32LastModifiedTime') return undefined;
  const ms = Date.parse(textOf(el).trim());
  return Number.isNaN(ms) ? undefined : Math.max(0, ms / 1000);
}

const nameOf = (i: Instruction): string => emptyElement(i.el.ns, i.el.name);

/** All or nothing: one protected property fails the request (403 for it, 424 for the rest). */
function refused(list: readonly Instruction[]): PropStat[] | undefined {
  const bad = list.filter((i) => isLiveProp(i.el.ns, i.el.name));
  if (bad.length === 0) return undefined;
  const rest = list.filter((i) => !bad.includes(i));
  return [
    { status: 403, props: bad.map(nameOf), error: '<D:cannot-modify-protected-property/>' },
    { status: 424, props: rest.map(nameOf) },
  ];
}

/**
 * PROPPATCH (RFC 4918 §9.2): dead properties set and removed atomically in the state (at most
 * 64 KiB per resource, 507 beyond); live DAV: properties are protected (403); a
 * Win32LastModifiedTime also sets the file's time. Needs `modify`.
 */
export async function proppatch(ctx: DavCtx): Promise<DavReply> {
  const { deps, req } = ctx;
  const target = await req.gate.resolve(req.path, 'write');
  const list = parsePropertyUpdate(await readXml(req.body, header(req, 'content-length')));
  const s = await statOrNull(target);
  if (!s) throw new AppError('not_found');
  if (!req.user.perm.modify) throw new AppError('forbidden');
  await checkConditions(ctx, target, [{ target }]);
  let propstats = refused(list);
  if (!propstats) {
    const stored = await deps.props.patch(keyOf(target), list.map((i) => i.op));
    propstats = [{ status: stored ? 200 : 507, props: list.map(nameOf) }];
    const time = stored ? list.map((i) => (i.op.op === 'set' ? win32Time(i.el) : undefined)).find((t) => t !== undefined) : undefined;
    if (time !== undefined) await setModified(target, time);
  }
  const href = hrefOf(mountOf(deps), target.path, s.effective.isDirectory());
  return { status: 207, headers: { 'content-type': 'application/xml; charset=utf-8' }, body: multistatus([{ href, propstats }]) };
}
