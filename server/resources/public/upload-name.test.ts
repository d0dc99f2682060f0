import { describe, expect, it } from 'vitest';
import { splitUploadPath, storedName } from './upload-name';

describe('the names of files sent through an upload link', () => {
  it.each([
    { name: 'report.pdf', n: 1, stored: 'report (1).pdf' },
    { name: 'report.pdf', n: 12, stored: 'report (12).pdf' },
    { name: 'archive.tar.gz', n: 1, stored: 'archive.tar (1).gz' },
    { name: 'README', n: 2, stored: 'README (2)' },
    { name: 'report.pdf', n: 0, stored: 'report.pdf' },
  ])('stores a taken $name as "$stored"', ({ name, n, stored }) => {
    expect(storedName(name, n)).toBe(stored);
  });

  it('splits the hash from one file name and keeps spaces and non-Latin letters', () => {
    expect(splitUploadPath('abc/Résumé 2024 (final).pdf')).toEqual({ hash: 'abc', name: 'Résumé 2024 (final).pdf' });
    expect(splitUploadPath('/abc/日本語.txt')).toEqual({ hash: 'abc', name: '日本語.txt' });
  });

  it.each(['abc', 'abc/', '/x', 'abc/a/b', 'abc/..', 'abc/.', 'abc/.env', 'abc/a\\b', 'abc/a\u0007b', `abc/${'é'.repeat(128)}`])('refuses %j with 400', (raw) => {
    expect(() => splitUploadPath(raw)).toThrow(expect.objectContaining({ code: 'bad_request' }));
  });
});
