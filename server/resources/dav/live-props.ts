import type { BigIntStats } from 'node:fs';
import { etagOf } from '../../fs/stat-format';
import { mimeOfExtension } from '../../fs/mime';
import { baseName, extensionOf } from '../../fs/paths';
import type { DavLock } from './locks';
import { escapeXml } from './xml-render';
import { DAV_NS } from './xml';

/** A resource as PROPFIND describes it. */
export interface Resource {
  /** Clean user path. */
  path: string;
  href: string;
  stat: BigIntStats;
  /** Locks and dead properties key. */
  key: string;
}

/** The live properties of RFC 4918 §15 this server keeps, in the order allprop lists them. */
export const LIVE_PROPS = ['resourcetype', 'displayname', 'getcontentlength', 'getcontenttype', 'getetag', 'getlastmodified', 'creationdate', 'supportedlock', 'lockdiscovery'] as const;

export type LiveProp = (typeof LIVE_PROPS)[number];

/** True for a DAV: property the server computes (PROPPATCH may not set it: 403). */
export function isLiveProp(ns: string, name: string): name is LiveProp {
  return ns === DAV_NS && (LIVE_PROPS as readonly string[]).includes(name);
}

/** Dates before 1970 break macOS Finder: they are sent as the epoch. Whole seconds. */
function epochSeconds(ns: bigint): number {
  return Math.max(0, Number(ns / 1_000_000_000n));
}

/** The last date formatted, by second: a folder's files often share one. */
const lastDate = { seconds: Number.NaN, rfc1123: '', iso: '' };

function datesOf(seconds: number): { rfc1123: string; iso: string } {
  if (lastDate.seconds !== seconds) {
    const d = new Date(seconds * 1000);
    lastDate.rfc1123 = d.toUTCString();
    lastDate.iso = d.toISOString().replace('.000Z', 'Z');
    lastDate.seconds = seconds;
  }
  return lastDate;
}

/** Content types by extension, remembered (a pure lookup; the same on every instance). */
const typeByExtension = new Map<string, string>();

function contentTypeOf(path: string): string {
  const ext = extensionOf(baseName(path));
  let type = typeByExtension.get(ext);
  if (type === undefined) {
    type = escapeXml(mimeOfExtension(ext) ?? 'application/octet-stream');
    if (typeByExtension.size < 1000) typeByExtension.set(ext, type);
  }
  return type;
}

/** The `<D:activelock>` of a lock; `rootHref` is where the lock was taken, as this user sees it. */
export function activeLock(lock: DavLock, rootHref: string, nowMs: number): string {
  const remaining = Math.max(0, Math.ceil((lock.expires - nowMs) / 1000));
  return `<D:activelock><D:locktype><D:write/></D:locktype><D:lockscope><D:${lock.scope}/></D:lockscope><D:depth>${lock.depth === '0' ? '0' : 'infinity'}</D:depth>${lock.owner}<D:timeout>Second-${remaining}</D:timeout><D:locktoken><D:href>${escapeXml(lock.token)}</D:href></D:locktoken><D:lockroot><D:href>${escapeXml(rootHref)}</D:href></D:lockroot></D:activelock>`;
}

const SUPPORTED_LOCK =
  '<D:supportedlock><D:lockentry><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockentry><D:lockentry><D:lockscope><D:shared/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockentry></D:supportedlock>';

/** What lockdiscovery needs: the locks covering the resource and the href of each lock's root. */
export interface LockView {
  locks: readonly DavLock[];
  rootHref: (lock: DavLock) => string;
  now: number;
}

/** The value of one live property, or undefined when it does not apply (a folder's length). */
export function liveProp(name: LiveProp, r: Resource, lockView: () => LockView): string | undefined {
  const dir = r.stat.isDirectory();
  switch (name) {
    case 'resourcetype':
      return dir ? '<D:resourcetype><D:collection/></D:resourcetype>' : '<D:resourcetype/>';
    case 'displayname':
      return `<D:displayname>${escapeXml(baseName(r.path))}</D:displayname>`;
    case 'getcontentlength':
      return dir ? undefined : `<D:getcontentlength>${r.stat.size}</D:getcontentlength>`;
    case 'getcontenttype':
      return dir ? undefined : `<D:getcontenttype>${contentTypeOf(r.path)}</D:getcontenttype>`;
    case 'getetag':
      // An entity tag is hex digits in quotes: nothing to escape in a text node.
      return `<D:getetag>${etagOf(r.stat)}</D:getetag>`;
    case 'getlastmodified':
      return `<D:getlastmodified>${datesOf(epochSeconds(r.stat.mtimeNs)).rfc1123}</D:getlastmodified>`;
    case 'creationdate': {
      const born = r.stat.birthtimeNs > 0n ? r.stat.birthtimeNs : r.stat.mtimeNs;
      return `<D:creationdate>${datesOf(epochSeconds(born)).iso}</D:creationdate>`;
    }
    case 'supportedlock':
      return SUPPORTED_LOCK;
    case 'lockdiscovery': {
      const view = lockView();
      return `<D:lockdiscovery>${view.locks.map((l) => activeLock(l, view.rootHref(l), view.now)).join('')}</D:lockdiscovery>`;
    }
  }
}
