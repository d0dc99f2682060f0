import { describe, expect, it } from 'vitest';
import { cleanUsername, derivedHome, normalizeScope, resolveScope } from './home';

describe('home directories', () => {
  it.each([
    ['alice', 'alice'],
    ['  bob  ', 'bob'],
    ['teamone/x', 'teamone-x'],
    ['teamone-x', 'teamone-x'],
    ['../../etc', '-etc'],
    ['a b  c', 'a-b-c'],
    ['é@x_y.z', '-@x_y.z'],
    ['a//\\\\b', 'a-b'],
  ])('cleans %j to %j', (name, cleaned) => {
    expect(cleanUsername(name)).toBe(cleaned);
  });

  it.each(['', '   ', '..', '/', '.'])('refuses %j with 400', (name) => {
    expect(() => cleanUsername(name)).toThrow(expect.objectContaining({ status: 400 }) as Error);
  });

  it.each([
    ['.', '/'],
    ['', '/'],
    ['/', '/'],
    ['../x', '/x'],
    ['data/', '/data'],
    ['/a/./b/../c', '/a/c'],
  ])('normalises the scope %j to %j', (scope, out) => {
    expect(normalizeScope(scope)).toBe(out);
  });

  it('derives <base>/<cleaned name> and keeps an explicit scope', () => {
    expect(derivedHome('/users', 'alice')).toBe('/users/alice');
    expect(derivedHome('', 'alice')).toBe('/users/alice');
    expect(resolveScope({ scope: '.', username: 'alice', derive: true, basePath: '/users' })).toEqual({ scope: '/users/alice', derived: true });
    expect(resolveScope({ scope: '/custom', username: 'alice', derive: false, basePath: '/users' })).toEqual({ scope: '/custom', derived: false });
  });
});
