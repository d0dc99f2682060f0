import { describe, expect, it } from 'vitest';
import { matchRanges, splitMatches, termsOf, type Piece } from './highlight';

/** Pieces written compactly: marked runs in [brackets]. */
function shown(pieces: Piece[]): string {
  return pieces.map((p) => (p.match ? `[${p.text}]` : p.text)).join('');
}

describe('termsOf', () => {
  it.each([
    ['Report', { caseSensitive: false, terms: ['report'] }],
    ['type:image holiday', { caseSensitive: false, terms: ['holiday'] }],
    ['type:pdf', { caseSensitive: false, terms: [] }],
    ['case:sensitive Report', { caseSensitive: true, terms: ['Report'] }],
    ['case:insensitive ABC', { caseSensitive: false, terms: ['abc'] }],
    ['one  two', { caseSensitive: false, terms: ['one', 'two'] }],
    ['"two words"', { caseSensitive: false, terms: ['two words'] }],
    ['"', { caseSensitive: false, terms: ['"'] }],
  ])('%j gives %j', (query, terms) => {
    expect(termsOf(query)).toEqual(terms);
  });
});

describe('splitMatches', () => {
  it.each([
    ['report.pdf', 'report', '[report].pdf'],
    ['Annual-REPORT.pdf', 'report', 'Annual-[REPORT].pdf'],
    ['docs/report/report.txt', 'report', 'docs/report/[report].txt'],
    ['report-report.txt', 'report', '[report]-[report].txt'],
    ['aaaa.txt', 'aa', '[aaaa].txt'],
    ['alpha-beta.txt', 'beta alpha', '[alpha]-[beta].txt'],
    ['abcd', 'abc bcd', '[abcd]'],
    ['holiday photo.jpg', '"y p"', 'holida[y p]hoto.jpg'],
    ['holiday photo.jpg', 'y p', 'holida[y] [p]hoto.j[p]g'],
    ['Report.pdf', 'case:sensitive report', 'Report.pdf'],
    ['Report.pdf', 'case:sensitive Rep', '[Rep]ort.pdf'],
    ['image.png', 'type:image', 'image.png'],
    ['image.png', 'type:image ima', '[ima]ge.png'],
    ['pdf.pdf', 'type:pdf', 'pdf.pdf'],
    ['notes.txt', '', 'notes.txt'],
    ['notes.txt', 'zzz', 'notes.txt'],
    ['تقرير-سنوي.pdf', 'سنوي', 'تقرير-[سنوي].pdf'],
    ['מסמך/דוח.txt', 'דוח', 'מסמך/[דוח].txt'],
    // A folder `<b>x<` holding `b>.txt`: only the base name is marked.
    ['<b>x</b>.txt', 'b>', '<b>x</[b>].txt'],
    ['<img src=x onerror=alert(1)>.txt', '<IMG', '[<img] src=x onerror=alert(1)>.txt'],
  ])('%j searched for %j shows %j', (path, query, expected) => {
    expect(shown(splitMatches(path, query))).toBe(expected);
  });

  it('keeps every character of the path, in order', () => {
    const path = 'a/b/Some Name — with report and REPORT.txt';
    expect(splitMatches(path, 'report name').map((p) => p.text).join('')).toBe(path);
  });

  it('maps a match back to whole characters when lower-casing lengthens the name', () => {
    // 'İ'.toLowerCase() is 'i̇' (two code units): the name's lowered form is one unit longer.
    const name = 'İstanbul-report.txt';
    expect(shown(splitMatches(name, 'report'))).toBe('İstanbul-[report].txt');
    expect(shown(splitMatches(name, 'stan'))).toBe('İ[stan]bul-report.txt');
    expect(matchRanges(name, 'i̇s')).toEqual([[0, 2]]);
  });

  it('never splits a character made of two code units', () => {
    expect(shown(splitMatches('😀smile😀.png', 'smile'))).toBe('😀[smile]😀.png');
  });
});
