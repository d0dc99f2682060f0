import { describe, expect, it } from 'vitest';
import { archiveName, commonDir, parseSelection } from './selection';

describe('parseSelection', () => {
  it.each([
    ['/docs', undefined, ['/docs']],
    ['/docs', '', ['/docs']],
    ['/', '/a.txt,/b/c.txt', ['/a.txt', '/b/c.txt']],
    ['/', '/my%20file.txt', ['/my file.txt']],
    ['/', '/a+b.txt', ['/a+b.txt']],
    ['/', '/comma%252Cname', ['/comma%2Cname']],
    ['/', '/x%2Cy', ['/x,y']],
    ['/docs', 'sub/a.txt', ['/docs/sub/a.txt']],
    ['/', '//a//b/', ['/a/b']],
    ['/', '/a,/a', ['/a']],
    ['/', '/a,/a/b.txt,/c', ['/a', '/c']],
    ['/', '/a,,/c', ['/a', '/c']],
    ['/', '/%E6%97%A5.txt', ['/日.txt']],
  ])('in %j reads files=%j as %j', (dir, files, expected) => {
    expect(parseSelection(dir, files)).toEqual(expected);
  });

  it.each([
    ['/%zz', 'malformed percent-encoding'],
    ['/%E6', 'malformed percent-encoding'],
    ['/../etc/passwd', '".." is not allowed'],
    ['/a/../../b', '".." is not allowed'],
    ['/a%00b', 'NUL in a name'],
  ])('refuses files=%j with 400 (%s)', (files, message) => {
    expect(() => parseSelection('/', files)).toThrow(
      expect.objectContaining({ status: 400, message: `invalid files selection: ${message}` }),
    );
  });
});

describe('commonDir', () => {
  it.each([
    [['/home/user/file1', '/home/user/file2'], '/home/user'],
    [['/home/user/folder', '/home/user/folder/file'], '/home/user/folder'],
    [['/home/user/folder', '/home/user/folder/../folder2'], '/home/user'],
    [['/home/user/folder', '/etc/file'], ''],
    [['/home/user/folder'], '/home/user/folder'],
    [['/ab/c', '/abc/d'], ''],
    [['/a/bc', '/a/bd'], '/a'],
    [[], ''],
  ])('of %j is %j', (paths, expected) => {
    expect(commonDir(paths)).toBe(expected);
  });
});

describe('archiveName', () => {
  it.each([
    [{ common: '/docs', fallback: 'root', selected: 1, extension: '.zip' }, 'docs.zip'],
    [{ common: '/docs', fallback: 'root', selected: 2, extension: '.zip' }, '_docs.zip'],
    [{ common: '/', fallback: 'srv', selected: 3, extension: '.tar.gz' }, '_srv.tar.gz'],
    [{ common: '', fallback: 'srv', selected: 1, extension: '.tar' }, 'srv.tar'],
    [{ common: '/a/b c', fallback: 'x', selected: 1, extension: '.tar.br' }, 'b c.tar.br'],
  ])('of %j is %j', (naming, expected) => {
    expect(archiveName(naming)).toBe(expected);
  });
});
