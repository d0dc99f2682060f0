import { describe, expect, it } from 'vitest';
import { archiveStem, extractableSuffix } from './archive-name';

describe('archive names', () => {
  it.each([
    ['photos.zip', '.zip', 'photos'],
    ['Backup.TAR.GZ', '.tar.gz', 'Backup'],
    ['a.tgz', '.tgz', 'a'],
    ['src.tar.zst', '.tar.zst', 'src'],
    ['x.tar.bz2', '.tar.bz2', 'x'],
    ['x.txz', '.txz', 'x'],
  ])('%s is an archive (%s) extracted into %s', (name, suffix, stem) => {
    expect(extractableSuffix(name)).toBe(suffix);
    expect(archiveStem(name)).toBe(stem);
  });

  it.each(['notes.txt', 'archive.rar', '.zip', 'x.tar.lz4'])('%s is not extracted', (name) => expect(extractableSuffix(name)).toBeNull());
});
