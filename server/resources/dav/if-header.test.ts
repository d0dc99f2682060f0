import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors';
import { evaluateIf, NO_LOCK, parseIf, submittedTokens, type ResourceState } from './if-header';

const locked: ResourceState = { etag: '"abc"', tokens: new Set(['urn:uuid:1']) };
const free: ResourceState = { etag: '"abc"', tokens: new Set() };
const evalOn = (header: string, state: ResourceState, tagged: Record<string, ResourceState> = {}): Promise<boolean> =>
  evaluateIf(parseIf(header) ?? [], (r) => Promise.resolve(r === undefined ? state : (tagged[r] ?? { etag: undefined, tokens: new Set() })));

describe('If header parser (RFC 4918 §10.4)', () => {
  it('reads untagged lists with tokens, etags and Not', () => {
    expect(parseIf('(<urn:uuid:1> ["abc"]) (Not <DAV:no-lock>)')).toEqual([
      { conditions: [{ not: false, token: 'urn:uuid:1' }, { not: false, etag: '"abc"' }] },
      { conditions: [{ not: true, token: NO_LOCK }] },
    ]);
  });

  it('reads tagged lists, a tag applying to every list after it', () => {
    expect(parseIf('<http://h/dav/a> (<t1>) (["x"]) </dav/b> (Not ["y"])')).toEqual([
      { resource: 'http://h/dav/a', conditions: [{ not: false, token: 't1' }] },
      { resource: 'http://h/dav/a', conditions: [{ not: false, etag: '"x"' }] },
      { resource: '/dav/b', conditions: [{ not: true, etag: '"y"' }] },
    ]);
  });

  it('is absent for a missing or blank header', () => {
    expect(parseIf(undefined)).toBeUndefined();
    expect(parseIf('  ')).toBeUndefined();
  });

  it.each([
    ['(<foo'],
    ['garbage'],
    ['()'],
    ['(["unquoted])'],
    ['([abc])'],
    ['<http://h/a>'],
    ['(<a>) <http://h/b> (<c>)'],
    ['<http://h/b> (<c>) (<d>) x'],
    ['(Not)'],
    [`(${'<a> '.repeat(5000)})`],
    ['(<a>) '.repeat(65)],
  ])('refuses %s with 400', (header) => {
    expect(() => parseIf(header)).toThrow(AppError);
    try {
      parseIf(header);
    } catch (err) {
      expect((err as AppError).status).toBe(400);
    }
  });

  it('submits every lock token it names, never DAV:no-lock', () => {
    expect([...submittedTokens(parseIf('<http://h/x> (<a> ["e"]) (Not <b>) </y> (<c>) (Not <DAV:no-lock>)'))]).toEqual(['a', 'b', 'c']);
    expect(submittedTokens(undefined).size).toBe(0);
  });
});

describe('If header evaluation', () => {
  it.each([
    ['(<urn:uuid:1>)', locked, true],
    ['(<urn:uuid:2>)', locked, false],
    ['(<urn:uuid:1> ["abc"])', locked, true],
    ['(<urn:uuid:1> ["abd"])', locked, false],
    ['(<DAV:no-lock> ["abc"])', locked, false],
    ['(Not <DAV:no-lock>)', free, true],
    ['(<urn:uuid:1x>) (Not <DAV:no-lock>)', locked, true],
    ['(<urn:uuid:1> ["x"]) (Not <DAV:no-lock> ["x"])', locked, false],
    ['(Not ["abc"])', free, false],
    ['(["abc"])', free, true],
    ['([W/"abc"])', free, false],
    ['(<urn:uuid:1>)', free, false],
  ])('%s is %s', async (header, state, expected) => {
    expect(await evalOn(header, state)).toBe(expected);
  });

  it('evaluates a tagged list against its own resource', async () => {
    const tagged = { 'http://h/dav/coll/': locked };
    expect(await evalOn('<http://h/dav/coll/> (<urn:uuid:1>)', free, tagged)).toBe(true);
    expect(await evalOn('<http://h/dav/other> (<urn:uuid:1>)', locked, tagged)).toBe(false);
  });

  it('is true when any list holds', async () => {
    expect(await evalOn('(<nope>) (["abc"])', free)).toBe(true);
  });
});
