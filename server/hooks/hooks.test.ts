import { describe, expect, it } from 'vitest';
import { expandVars, invocationOf } from './hooks';

describe('expandVars', () => {
  it.each([
    ['$FILE', '/srv/a b.txt'],
    ['${FILE}.bak', '/srv/a b.txt.bak'],
    ['pre-$USERNAME-post', 'pre-alice-post'],
    ['$UNKNOWN', ''],
    ['100$', '100$'],
  ])('expands %j to %j', (arg, out) => {
    expect(expandVars(arg, { FILE: '/srv/a b.txt', USERNAME: 'alice' })).toBe(out);
  });
});

describe('invocationOf', () => {
  const env = { FILE: '/srv/a;touch X;.txt', PATH: '/bin' };

  it('splits the line and expands variables into single arguments, never argv[0]', () => {
    expect(invocationOf('$FILE cp "$FILE" /backup/', [], env).argv).toEqual(['$FILE', 'cp', '/srv/a;touch X;.txt', '/backup/']);
  });

  it('hands the untouched line to a configured shell; the values stay in the environment', () => {
    const inv = invocationOf('cp "$FILE" /backup/', ['sh', '-c'], env);
    expect(inv.argv).toEqual(['sh', '-c', 'cp "$FILE" /backup/']);
    expect(inv.env.FILE).toBe('/srv/a;touch X;.txt');
  });

  it('runs a line ending in & in the background', () => {
    const inv = invocationOf('notify done &', [], env);
    expect(inv.background).toBe(true);
    expect(inv.argv).toEqual(['notify', 'done']);
  });

  it('refuses an unclosed quote', () => {
    expect(() => invocationOf('echo "oops', [], env)).toThrow(/error parsing command/);
  });
});
