import { describe, expect, it } from 'vitest';
import { AppError } from '../errors';
import { archiveExtension, parseArchiveAlgo, safeEntryName, type ArchiveFormat } from './formats';

describe('parseArchiveAlgo', () => {
  it.each([
    [undefined, 'zip'],
    ['', 'zip'],
    ['true', 'zip'],
    ['zip', 'zip'],
    ['tar', 'tar'],
    ['targz', 'targz'],
    ['tarbz2', 'tarbz2'],
    ['tarxz', 'tarxz'],
    ['tarlz4', 'tarlz4'],
    ['tarsz', 'tarsz'],
    ['tarbr', 'tarbr'],
    ['tarzst', 'tarzst'],
  ])('reads algo=%j as %s', (algo, format) => {
    expect(parseArchiveAlgo(algo)).toBe(format);
  });

  it.each(['rar', 'tarzstd', 'ZIP', 'tar.gz', 'false', 'constructor', 'toString', ' zip'])(
    'answers 400 with the reason for algo=%j',
    (algo) => {
      let thrown: unknown;
      try {
        parseArchiveAlgo(algo);
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toBeInstanceOf(AppError);
      expect((thrown as AppError).status).toBe(400);
      expect((thrown as AppError).message).toBe(`unsupported archive format ${algo}`);
    },
  );
});

describe('archiveExtension', () => {
  it.each<[ArchiveFormat, string]>([
    ['zip', '.zip'],
    ['tar', '.tar'],
    ['targz', '.tar.gz'],
    ['tarbz2', '.tar.bz2'],
    ['tarxz', '.tar.xz'],
    ['tarlz4', '.tar.lz4'],
    ['tarsz', '.tar.sz'],
    ['tarbr', '.tar.br'],
    ['tarzst', '.tar.zst'],
  ])('names %s files *%s', (format, extension) => {
    expect(archiveExtension(format)).toBe(extension);
  });
});

describe('safeEntryName', () => {
  it.each([
    ['docs/a.txt', 'docs/a.txt'],
    ['ünïcödé ✓.txt', 'ünïcödé ✓.txt'],
    ['..\\..\\evil.sh', '.._.._evil.sh'],
    ['dir\\file.txt', 'dir_file.txt'],
    ['..foo/bar..', '..foo/bar..'],
    ['.hidden/...', '.hidden/...'],
  ])('keeps %j as %j', (name, safe) => {
    expect(safeEntryName(name)).toBe(safe);
  });

  it.each([
    '',
    '..',
    '../evil.sh',
    'a/../../evil.sh',
    'a/..',
    '/etc/passwd',
    '//server/share',
    './a.txt',
    'a/./b',
    'a//b',
    'dir/',
    'nul\0byte',
  ])('refuses %j', (name) => {
    expect(safeEntryName(name)).toBeUndefined();
  });
});
