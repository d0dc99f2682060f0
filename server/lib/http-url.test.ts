import { describe, expect, it } from 'vitest';
import { httpUrlOrEmpty } from './http-url';

describe('httpUrlOrEmpty', () => {
  it.each([
    ['', ''],
    ['   ', ''],
    ['https://git.example/team/files/issues/new', 'https://git.example/team/files/issues/new'],
    [' HTTP://t.example:8080/bugs?x=1 ', 'HTTP://t.example:8080/bugs?x=1'],
  ])('accepts %j as %j', (value, expected) => {
    expect(httpUrlOrEmpty(value)).toBe(expected);
  });

  it.each(['javascript:alert(1)', 'data:text/html,x', 'ftp://t.example/', 'mailto:a@b.example', '//t.example/issues', 't.example/issues', 'https://', 'http://exa mple.com/'])(
    'refuses %j',
    (value) => {
      expect(httpUrlOrEmpty(value)).toBeUndefined();
    },
  );
});
