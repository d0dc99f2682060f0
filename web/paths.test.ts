import { describe, expect, it } from 'vitest';
import {
  apiPaths, baseName, crumbs, encodePath, filesPath, folderName, folderOf, joinPath, loginPath, parentPath, publicArchivePath,
  resourcePathFromLocation, safeRedirect, shareFromLocation, sharePath, signupPath, stripBase, userEditPath,
  withBase, withQuery,
} from './paths';

describe('encodePath', () => {
  it.each([
    ['/', '/'],
    ['/docs/', '/docs/'],
    ['/a b/c#d?.txt', '/a%20b/c%23d%3F.txt'],
    ['/100%/ü', '/100%25/%C3%BC'],
  ])('%s -> %s', (input, expected) => {
    expect(encodePath(input)).toBe(expected);
  });
});

describe('app paths', () => {
  it.each([
    [filesPath(), '/files/'],
    [filesPath('/docs/'), '/files/docs/'],
    [filesPath('docs/a b.txt'), '/files/docs/a%20b.txt'],
    [loginPath(), '/login'],
    [signupPath(), '/login?mode=signup'],
    [loginPath('/files/a b/?x=1'), '/login?redirect=%2Ffiles%2Fa%20b%2F%3Fx%3D1'],
    [userEditPath(7), '/settings/users/7'],
    [userEditPath('new'), '/settings/users/new'],
    [sharePath('Ab3_x', '/sub dir/'), '/share/Ab3_x/sub%20dir/'],
    [apiPaths.resources('/a#b/'), '/api/resources/a%23b/'],
    [apiPaths.usage('/'), '/api/usage/'],
    [apiPaths.share('a-b_c'), '/api/share/a-b_c'],
    [apiPaths.publicShare('h1', '/x y/'), '/api/public/share/h1/x%20y/'],
    [apiPaths.publicDownload('h1', '/'), '/api/public/dl/h1/'],
    [withQuery('/api/public/dl/h1/', { algo: 'zip', token: undefined, inline: '' }), '/api/public/dl/h1/?algo=zip'],
    [withQuery('/x', { token: 'a+b/c' }), '/x?token=a%2Bb%2Fc'],
    [withQuery('/x', {}), '/x'],
    [withBase('/fb', apiPaths.raw('/x y')), '/fb/api/raw/x%20y'],
  ])('builds %s', (actual, expected) => {
    expect(actual).toBe(expected);
  });
});

describe('stripBase', () => {
  it.each([
    ['/files/', '', '/files/'],
    ['/fb/files/', '/fb', '/files/'],
    ['/fb', '/fb', '/'],
    ['/fbx/files/', '/fb', null],
    ['/other', '/fb', null],
  ])('%s under base %s -> %s', (pathname, base, expected) => {
    expect(stripBase(pathname, base)).toBe(expected);
  });
});

describe('resourcePathFromLocation', () => {
  it.each([
    ['/files', '', '/'],
    ['/files/', '', '/'],
    ['/files/docs/', '', '/docs/'],
    ['/fb/files/a%20b/c%23d.txt', '/fb', '/a b/c#d.txt'],
    ['/files/100%25/x%2Fy', '', '/100%/x/y'],
    ['/files/bad%E0%A4%A', '', '/bad%E0%A4%A'],
  ])('%s (base %s) is %s', (pathname, base, expected) => {
    expect(resourcePathFromLocation(pathname, base)).toBe(expected);
  });
});

describe('shareFromLocation', () => {
  it.each([
    ['/share/Ab3_x', '', { hash: 'Ab3_x', path: '/' }],
    ['/share/Ab3_x/', '', { hash: 'Ab3_x', path: '/' }],
    ['/fb/share/Ab3_x/sub%20dir/a%23b.txt', '/fb', { hash: 'Ab3_x', path: '/sub dir/a#b.txt' }],
    ['/share/h/d/', '', { hash: 'h', path: '/d/' }],
  ])('%s (base %s) is %j', (pathname, base, expected) => {
    expect(shareFromLocation(pathname, base)).toEqual(expected);
  });
});

describe('safeRedirect', () => {
  it.each([
    [null, '/files/'],
    ['', '/files/'],
    ['/files/docs/', '/files/docs/'],
    ['/settings/users?x=1', '/settings/users?x=1'],
    ['//evil.example/', '/files/'],
    ['/\\evil.example', '/files/'],
    ['https://evil.example/', '/files/'],
    ['files/', '/files/'],
  ])('%s -> %s', (input, expected) => {
    expect(safeRedirect(input)).toBe(expected);
  });
});

describe('path arithmetic', () => {
  it.each([
    [['/', 'a', false], '/a'],
    [['/docs/', 'b', true], '/docs/b/'],
    [['/docs', 'c.txt', false], '/docs/c.txt'],
  ] as const)('joinPath(%j) = %s', ([dir, name, isDir], expected) => {
    expect(joinPath(dir, name, isDir)).toBe(expected);
  });

  it.each([
    ['/', '/'],
    ['/a', '/'],
    ['/a/', '/'],
    ['/a/b/', '/a/'],
    ['/a/b.txt', '/a/'],
  ])('parentPath(%s) = %s', (path, expected) => {
    expect(parentPath(path)).toBe(expected);
  });

  it.each([
    ['/a/b/', '/a/b/'],
    ['/a/b.txt', '/a/'],
    ['/', '/'],
  ])('folderOf(%s) = %s', (path, expected) => {
    expect(folderOf(path)).toBe(expected);
  });

  it.each([
    ['/a/b.txt', 'b.txt'],
    ['/a/b/', ''],
    ['c', 'c'],
  ])('baseName(%s) = %s', (path, expected) => {
    expect(baseName(path)).toBe(expected);
  });

  it.each([
    ['/', ''],
    ['/docs/', 'docs'],
    ['/docs/sub', 'sub'],
  ])('folderName(%s) = %s', (path, expected) => {
    expect(folderName(path)).toBe(expected);
  });

  it('builds one crumb per folder', () => {
    expect(crumbs('/')).toEqual([]);
    expect(crumbs('/a/b c/')).toEqual([
      { name: 'a', path: '/a/' },
      { name: 'b c', path: '/a/b c/' },
    ]);
  });
});

describe('publicArchivePath', () => {
  it('asks the share root for a zip of the items by their share paths, with the token when given', () => {
    expect(publicArchivePath('h1', ['/docs/', '/a b.txt'], 'tok')).toBe(
      `/api/public/dl/h1/?files=${encodeURIComponent('/docs/,/a%20b.txt')}&algo=zip&token=tok`,
    );
    expect(publicArchivePath('h1', ['/x.txt'])).toBe(`/api/public/dl/h1/?files=${encodeURIComponent('/x.txt')}&algo=zip`);
  });
});
