import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors';
import { childOf, parseXml, readSmallBody, textOf, XML_LIMIT } from './xml';
import { escapeXml, multistatus, serializeElement } from './xml-render';

const status = (fn: () => unknown): number | undefined => {
  try {
    fn();
  } catch (err) {
    return err instanceof AppError ? err.status : -1;
  }
  return undefined;
};

describe('XML bodies', () => {
  it('parses namespaces by URI, whatever the prefix', () => {
    const doc = parseXml('<?xml version="1.0"?><x:propfind xmlns:x="DAV:"><x:prop><y:a xmlns:y="urn:y" y:k="v">t&amp;u</y:a></x:prop></x:propfind>');
    expect(doc).toMatchObject({ ns: 'DAV:', name: 'propfind' });
    const a = childOf(childOf(doc, 'DAV:', 'prop') ?? doc, 'urn:y', 'a');
    expect(a?.attrs).toEqual([{ ns: 'urn:y', name: 'k', value: 'v' }]);
    expect(a && textOf(a)).toBe('t&u');
  });

  it.each([
    ['a DOCTYPE', '<!DOCTYPE x><x/>'],
    ['a billion laughs', `<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaaaaaaaa">${Array.from({ length: 9 }, (_, i) => `<!ENTITY e${i + 1} "${`&${i === 0 ? 'a' : `e${i}`};`.repeat(10)}">`).join('')}]><x>&e9;</x>`],
    ['an external entity', '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>'],
    ['an undefined entity', '<x>&e;</x>'],
    ['an unclosed tag', '<x><y></x>'],
    ['an undeclared prefix', '<p:x/>'],
    ['an empty namespace prefix binding', '<x xmlns:b=""/>'],
    ['two roots', '<x/><y/>'],
    ['text only', 'hello'],
  ])('refuses %s with 400', (_name, text) => {
    expect(status(() => parseXml(text))).toBe(400);
  });

  it('reads a body up to the limit and refuses a larger one with 413', async () => {
    expect(await readSmallBody(Readable.from([Buffer.from('<a/>')]), '4')).toBe('<a/>');
    await expect(readSmallBody(Readable.from([Buffer.alloc(XML_LIMIT + 1)]), undefined)).rejects.toMatchObject({ status: 413 });
    await expect(readSmallBody(Readable.from([Buffer.from('x')]), String(XML_LIMIT + 1))).rejects.toMatchObject({ status: 413 });
  });
});

describe('XML rendering', () => {
  it('serialises a fragment that keeps its namespaces wherever it is embedded', () => {
    const el = parseXml('<a:p xmlns:a="urn:a" xmlns="urn:d"><b>x&lt;</b><c xmlns="">y</c></a:p>');
    const xml = serializeElement(el);
    const again = parseXml(xml);
    expect(again).toEqual(el);
    expect(xml).not.toContain('xmlns="');
  });

  it('escapes markup and drops characters XML cannot carry', () => {
    expect(escapeXml('a<b>&"c"\u0001')).toBe('a&lt;b&gt;&amp;&quot;c&quot;\ufffd');
  });

  it('renders a multistatus with one propstat per status, empty ones left out', () => {
    const body = multistatus([{ href: '/dav/a%20b', propstats: [{ status: 200, props: ['<D:getetag>"1"</D:getetag>'] }, { status: 404, props: [] }] }]);
    const doc = parseXml(body);
    expect(doc.name).toBe('multistatus');
    expect(body).toContain('<D:href>/dav/a%20b</D:href>');
    expect(body).toContain('HTTP/1.1 200 OK');
    expect(body).not.toContain('404');
  });
});
