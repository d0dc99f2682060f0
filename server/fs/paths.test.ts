import { posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isWithin } from '../lib/within';
import { baseName, canonicalPath, cleanPath, extensionOf, joinPath, numberedName, parentPath } from './paths';

describe('canonicalPath', () => {
  it.each([
    ['', '/'],
    ['/', '/'],
    ['Secret.txt', '/Secret.txt'],
    ['/allow/../Secret.txt', '/Secret.txt'],
    ['//a///b', '/a/b'],
    ['/a\\b.txt', '/a\\b.txt'],
    ['/allow\\..\\Secret.txt', '/allow\\..\\Secret.txt'],
    ['/../../etc/passwd', '/etc/passwd'],
    ['/a/./b/', '/a/b/'],
    ['/newdir/', '/newdir/'],
    ['/a/b/../', '/a/'],
    ['/..', '/'],
  ])('turns %j into %j', (raw, expected) => {
    expect(canonicalPath(raw)).toBe(expected);
  });

  it('drops the trailing slash in the clean form', () => {
    expect(cleanPath('/newdir/')).toBe('/newdir');
  });

  it('gives what posix.normalize gives for every path made of tricky segments (the clean fast path)', () => {
    const parts = ['', '.', '..', '...', 'a', '.a', 'a.', '..a', 'a..', 'a\\b', ' '];
    const raws = parts.flatMap((a) => parts.flatMap((b) => parts.flatMap((c) => ['', '/'].flatMap((lead) => ['', '/'].map((trail) => `${lead}${a}/${b}/${c}${trail}`)))));
    expect(raws).toHaveLength(parts.length ** 3 * 4);
    for (const raw of raws) {
      const normalized = posix.normalize(`/${raw}`);
      expect(cleanPath(raw), raw).toBe(normalized.length > 1 && normalized.endsWith('/') ? normalized.slice(0, -1) : normalized);
    }
  });
});

describe('path helpers', () => {
  it.each([
    ['/', ''],
    ['/a', 'a'],
    ['/a/b.txt', 'b.txt'],
  ])('baseName(%j) is %j', (p, name) => expect(baseName(p)).toBe(name));

  it.each([
    ['/', '/'],
    ['/a', '/'],
    ['/a/b', '/a'],
  ])('parentPath(%j) is %j', (p, parent) => expect(parentPath(p)).toBe(parent));

  it.each([
    ['a.txt', '.txt'],
    ['a.tar.gz', '.gz'],
    ['.bashrc', '.bashrc'],
    ['Makefile', ''],
  ])('extensionOf(%j) is %j', (n, ext) => expect(extensionOf(n)).toBe(ext));

  it.each([
    ['a.txt', 'a(1).txt'],
    ['a.tar.gz', 'a.tar(1).gz'],
    ['.bashrc', '(1).bashrc'],
    ['folder', 'folder(1)'],
  ])('numberedName(%j, 1) is %j', (n, out) => expect(numberedName(n, 1)).toBe(out));

  it.each([
    ['/a', '/a', true],
    ['/a', '/a/b', true],
    ['/a', '/abc', false],
    ['/a/', '/a/b', true],
    ['/', '/anything', true],
  ])('isWithin(%j, %j) is %j', (dir, p, out) => expect(isWithin(dir, p)).toBe(out));

  it('joins names onto the root without a double slash', () => {
    expect(joinPath('/', 'a')).toBe('/a');
    expect(joinPath('/a', 'b')).toBe('/a/b');
  });
});
