import { describe, expect, it } from 'vitest';
import { fileKind } from './file-kind';

describe('fileKind', () => {
  it.each([
    ['Documents', '', true, 'folder'],
    ['photo.JPG', 'image', false, 'image'],
    ['song.mp3', 'audio', false, 'audio'],
    ['clip.mkv', 'video', false, 'video'],
    ['paper.pdf', 'pdf', false, 'pdf'],
    ['backup.tar.gz', 'blob', false, 'archive'],
    ['bundle.zip', 'blob', false, 'archive'],
    ['main.ts', 'video', false, 'code'],
    ['script.py', 'text', false, 'code'],
    ['Makefile', 'text', false, 'code'],
    ['README.md', 'text', false, 'markdown'],
    ['sheet.xlsx', 'blob', false, 'spreadsheet'],
    ['data.csv', 'text', false, 'spreadsheet'],
    ['slides.pptx', 'blob', false, 'presentation'],
    ['letter.docx', 'blob', false, 'document'],
    ['notes.txt', 'text', false, 'text'],
    ['LICENSE', 'textImmutable', false, 'text'],
    ['.bashrc', 'text', false, 'text'],
    ['firmware.bin', 'blob', false, 'file'],
  ] as const)('takes %s (type %s, folder: %s) for %s', (...[name, type, isDir, kind]) => {
    expect(fileKind(name, type, isDir)).toBe(kind);
  });
});
