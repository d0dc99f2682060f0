import { STATUS_CODES } from 'node:http';
import type { XmlElement } from './xml';

/** Characters XML 1.0 cannot carry (control characters a file name may hold) become U+FFFD. */
// eslint-disable-next-line no-control-regex -- the point is to find control characters
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

// eslint-disable-next-line no-control-regex -- the same control characters, and the markup ones
const NEEDS_ESCAPE = /[&<>"\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/;

/** Escapes text for an XML text node or a double-quoted attribute (most text needs nothing). */
export function escapeXml(text: string): string {
  if (!NEEDS_ESCAPE.test(text)) return text;
  return text.replace(NOT_XML, '\ufffd').replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'));
}

/** `HTTP/1.1 207 Multi-Status` for a status element. */
export function statusLine(status: number): string {
  return `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Unknown'}`;
}

function collectNamespaces(el: XmlElement, into: Map<string, string>): void {
  const add = (ns: string): void => {
    if (ns !== '' && !into.has(ns)) into.set(ns, `n${into.size}`);
  };
  add(el.ns);
  for (const a of el.attrs) add(a.ns);
  for (const c of el.children) if (typeof c === 'object') collectNamespaces(c, into);
}

function qname(ns: string, name: string, prefixes: Map<string, string>): string {
  const p = ns === '' ? undefined : prefixes.get(ns);
  return p === undefined ? name : `${p}:${name}`;
}

function render(el: XmlElement, prefixes: Map<string, string>, decls: string): string {
  const tag = qname(el.ns, el.name, prefixes);
  const attrs = el.attrs.map((a) => ` ${qname(a.ns, a.name, prefixes)}="${escapeXml(a.value)}"`).join('');
  if (el.children.length === 0) return `<${tag}${decls}${attrs}/>`;
  const inner = el.children.map((c) => (typeof c === 'string' ? escapeXml(c) : render(c, prefixes, ''))).join('');
  return `<${tag}${decls}${attrs}>${inner}</${tag}>`;
}

/**
 * Serialises an element as a self-contained fragment: every namespace of its subtree gets a
 * prefix declared on the element itself, and no default namespace is ever declared, so the
 * fragment means the same wherever it is embedded (dead properties, lock owners).
 */
export function serializeElement(el: XmlElement): string {
  const prefixes = new Map<string, string>();
  collectNamespaces(el, prefixes);
  const decls = [...prefixes].map(([ns, p]) => ` xmlns:${p}="${escapeXml(ns)}"`).join('');
  return render(el, prefixes, decls);
}

/** An element with no content, named by namespace and local name, self-contained. */
export function emptyElement(ns: string, name: string): string {
  return ns === 'DAV:' ? `<D:${name}/>` : ns === '' ? `<${name}/>` : `<x:${name} xmlns:x="${escapeXml(ns)}"/>`;
}

/** One propstat: the properties (XML fragments) that share a status. */
export interface PropStat {
  status: number;
  props: string[];
  /** An RFC 4918 precondition element for a failed property (e.g. cannot-modify-protected-property). */
  error?: string;
}

/** One response of a multistatus: a resource with its propstats, or with a plain status. */
export interface DavResponseEntry {
  href: string;
  propstats?: PropStat[];
  status?: number;
}

const OK_LINE = statusLine(200);

/** One `<D:response>` (a listing renders thousands: plain concatenation, no arrays). */
export function renderEntry(e: DavResponseEntry): string {
  let out = `<D:response><D:href>${escapeXml(e.href)}</D:href>`;
  for (const ps of e.propstats ?? []) {
    if (ps.props.length === 0) continue;
    const error = ps.error ? `<D:error>${ps.error}</D:error>` : '';
    out += `<D:propstat><D:prop>${ps.props.join('')}</D:prop><D:status>${ps.status === 200 ? OK_LINE : statusLine(ps.status)}</D:status>${error}</D:propstat>`;
  }
  if (e.status !== undefined) out += `<D:status>${statusLine(e.status)}</D:status>`;
  return `${out}</D:response>`;
}

export const XML_HEAD = '<?xml version="1.0" encoding="utf-8"?>\n';

/** A 207 body: the multistatus of the entries. */
export function multistatus(entries: readonly DavResponseEntry[]): string {
  return multistatusOf(entries.map(renderEntry).join(''));
}

/** A 207 body around responses already rendered. */
export function multistatusOf(rendered: string): string {
  return `${XML_HEAD}<D:multistatus xmlns:D="DAV:">${rendered}</D:multistatus>\n`;
}

/** An error body of RFC 4918 §16 holding one precondition element, e.g. `<D:propfind-finite-depth/>`. */
export function errorBody(condition: string): string {
  return `${XML_HEAD}<D:error xmlns:D="DAV:"><D:${condition}/></D:error>\n`;
}
