import type { Readable } from 'node:stream';
import type * as Saxes from 'saxes';
import type { SaxesTagNS } from 'saxes';
import { loadLater } from '../../lib/load-later';
import { AppError } from '../../errors';

// Loaded by the first WebDAV body that needs parsing, not at start-up (idle RSS, P2).
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (load-later.ts)
const saxes = loadLater<typeof Saxes>('saxes', () => require('saxes'));

/** XML request bodies (PROPFIND, PROPPATCH, LOCK) are capped at 64 KiB (beyond.md §1). */
export const XML_LIMIT = 64 * 1024;

/** A parsed element: namespace URI, local name, prefix-free attributes and children in order. */
export interface XmlElement {
  ns: string;
  name: string;
  attrs: XmlAttribute[];
  children: XmlNode[];
}

export interface XmlAttribute {
  ns: string;
  name: string;
  value: string;
}

export type XmlNode = XmlElement | string;

export const DAV_NS = 'DAV:';

/** True when `node` is the element `{ns}name`. */
export function isElement(node: XmlNode | undefined, ns: string, name: string): node is XmlElement {
  return typeof node === 'object' && node.ns === ns && node.name === name;
}

/** The element children of `el` (text and whitespace left out). */
export function elementsOf(el: XmlElement): XmlElement[] {
  return el.children.filter((c): c is XmlElement => typeof c === 'object');
}

/** The first child element `{ns}name` of `el`, if any. */
export function childOf(el: XmlElement, ns: string, name: string): XmlElement | undefined {
  return elementsOf(el).find((c) => c.ns === ns && c.name === name);
}

/** The concatenated text of an element's direct text children. */
export function textOf(el: XmlElement): string {
  return el.children.filter((c): c is string => typeof c === 'string').join('');
}

function toElement(tag: SaxesTagNS): XmlElement {
  const attrs: XmlAttribute[] = [];
  for (const a of Object.values(tag.attributes)) {
    // Namespace declarations are syntax, not data: the serialiser writes its own.
    if (a.prefix === 'xmlns' || (a.prefix === '' && a.local === 'xmlns')) continue;
    attrs.push({ ns: a.uri, name: a.local, value: a.value });
  }
  return { ns: tag.uri, name: tag.local, attrs, children: [] };
}

/**
 * Parses an XML document, namespace-aware, without DTDs (any DOCTYPE is refused, so no entity
 * can be declared or expanded: a billion-laughs body fails at once). Malformed XML: 400.
 */
export function parseXml(text: string): XmlElement {
  const parser = new (saxes().SaxesParser)({ xmlns: true, position: false });
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  let failure: Error | undefined;
  parser.on('error', (err) => {
    failure ??= err;
  });
  parser.on('doctype', () => {
    failure ??= new Error('DTDs are not accepted');
  });
  parser.on('opentag', (tag) => {
    const el = toElement(tag);
    const parent = stack[stack.length - 1];
    if (parent) parent.children.push(el);
    else root = el;
    stack.push(el);
  });
  parser.on('closetag', () => {
    stack.pop();
  });
  const onText = (t: string): void => {
    stack[stack.length - 1]?.children.push(t);
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  try {
    parser.write(text).close();
  } catch (err) {
    failure ??= err as Error;
  }
  if (failure || !root) throw new AppError('bad_request', `malformed XML body${failure ? `: ${failure.message.split('\n')[0] ?? ''}` : ''}`);
  return root;
}

/**
 * Reads a request body of at most XML_LIMIT bytes as UTF-8 ('' when there is none). A declared
 * or actual larger body answers 413; the rest is read and dropped (never destroyed: the answer
 * must still reach the client).
 */
export function readSmallBody(body: Readable | undefined, declared: string | undefined): Promise<string> {
  if (!body || body.readableEnded) return Promise.resolve('');
  if (declared !== undefined && /^\d+$/.test(declared) && Number(declared) > XML_LIMIT) return Promise.reject(new AppError('too_large', undefined, { connection: 'close' }));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (err: Error): void => {
      body.removeAllListeners('data');
      body.removeListener('end', onEnd);
      body.resume();
      reject(err);
    };
    const onEnd = (): void => resolve(Buffer.concat(chunks).toString('utf8'));
    body.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > XML_LIMIT) stop(new AppError('too_large', undefined, { connection: 'close' }));
      else chunks.push(chunk);
    });
    body.once('end', onEnd);
    body.once('error', (err) => stop(new AppError('bad_request', `request body failed: ${err.message}`)));
  });
}

/** Reads and parses an XML body; undefined when the body is empty (allprop, lock refresh ...). */
export async function readXml(body: Readable | undefined, declared: string | undefined): Promise<XmlElement | undefined> {
  const text = await readSmallBody(body, declared);
  if (text.trim() === '') return undefined;
  return parseXml(text);
}
