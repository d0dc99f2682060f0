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

/** Dates before 1970 break macOS Finder: they are sent as the epoch. */
function epochMs(ns: bigint): number {
  return Math.max(0, Number(ns / 1_000_000n));
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
      return dir ? undefined : `<D:getcontenttype>${escapeXml(mimeOfExtension(extensionOf(baseName(r.path))) ?? 'application/octet-stream')}</D:getcontenttype>`;
    case 'getetag':
      return `<D:getetag>${escapeXml(etagOf(r.stat))}</D:getetag>`;
    case 'getlastmodified':
      return `<D:getlastmodified>${new Date(epochMs(r.stat.mtimeNs)).toUTCString()}</D:getlastmodified>`;
    case 'creationdate': {
      const born = r.stat.birthtimeNs > 0n ? r.stat.birthtimeNs : r.stat.mtimeNs;
      return `<D:creationdate>${new Date(epochMs(born)).toISOString().replace(/\.\d{3}Z$/, 'Z')}</D:creationdate>`;
    }
    case 'supportedlock':
      return SUPPORTED_LOCK;
    case 'lockdiscovery': {
      const view = lockView();
      return `<D:lockdiscovery>${view.locks.map((l) => activeLock(l, view.rootHref(l), view.now)).join('')}</D:lockdiscovery>`;
    }
  }
}
