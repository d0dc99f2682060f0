import { describe, expect, it } from 'vitest';
import { createNameMatcher, parseSearchQuery, type SearchQuery } from './query';

const mimes: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.png': 'image/png',
  '.mp3': 'audio/mpeg',
  '.mkv': 'video/x-matroska',
  '.pdf': 'application/pdf',
};
const mimeOf = (name: string): string => mimes[name.slice(name.lastIndexOf('.')).toLowerCase()] ?? '';

describe('parseSearchQuery', () => {
  it.each<[string, SearchQuery]>([
    ['Report', { caseSensitive: false, conditions: [], terms: ['report'] }],
    ['case:sensitive Report', { caseSensitive: true, conditions: [], terms: ['Report'] }],
    ['Report case:insensitive', { caseSensitive: false, conditions: [], terms: ['report'] }],
    ['a b', { caseSensitive: false, conditions: [], terms: ['a', 'b'] }],
    ['a  b', { caseSensitive: false, conditions: [], terms: ['a', '', 'b'] }],
    ['"a b"', { caseSensitive: false, conditions: [], terms: ['a b'] }],
    ['type:image "Summer Trip"', { caseSensitive: false, conditions: [{ media: 'image' }], terms: ['summer trip'] }],
    ['type:music', { caseSensitive: false, conditions: [{ media: 'audio' }], terms: [''] }],
    ['type:pdf type:video x', { caseSensitive: false, conditions: [{ extension: 'pdf' }, { media: 'video' }], terms: ['x'] }],
    ['', { caseSensitive: false, conditions: [], terms: [''] }],
    ['type:', { caseSensitive: false, conditions: [], terms: ['type:'] }],
  ])('reads %j', (query, expected) => {
    expect(parseSearchQuery(query)).toEqual(expected);
  });
});

describe('createNameMatcher', () => {
  it.each([
    ['report', 'Annual-REPORT.pdf', true],
    ['report', 'summary.pdf', false],
    ['case:sensitive Report', 'Annual-REPORT.pdf', false],
    ['case:sensitive REPORT', 'Annual-REPORT.pdf', true],
    ['cat dog', 'hotdog.txt', true],
    ['cat dog', 'bird.txt', false],
    ['"cat dog"', 'cat dog.txt', true],
    ['"cat dog"', 'cat.txt', false],
    ['a  b', 'zzz', true],
    ['', 'anything', true],
    ['type:image', 'photo.JPG', true],
    ['type:image', 'song.mp3', false],
    ['type:audio', 'song.mp3', true],
    ['type:music', 'song.mp3', true],
    ['type:video', 'film.mkv', true],
    ['type:pdf', 'paper.pdf', true],
    ['type:pdf', 'paper.PDF', false],
    ['type:gz', 'backup.tar.gz', true],
    ['type:bashrc', '.bashrc', true],
    ['type:image type:pdf', 'paper.pdf', true],
    ['type:image type:pdf', 'notes.txt', false],
    ['type:image trip', 'trip.png', true],
    ['type:image trip', 'trip.txt', false],
    ['type:image trip', 'home.png', false],
  ])('with %j says %j matches: %j', (query, name, expected) => {
    expect(createNameMatcher(parseSearchQuery(query), mimeOf)(name)).toBe(expected);
  });
});
