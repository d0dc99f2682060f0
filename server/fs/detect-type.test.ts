import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTree } from '../../tests/support/tree';
import { detectType, type TypeQuery } from './detect-type';
import { isBinary, isMpegTs, sniffMime } from './sniff';

const tsPacket = Buffer.alloc(188 * 3, 0xff);
for (let i = 0; i < 3; i++) tsPacket[i * 188] = 0x47;
const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

let root = '';
beforeAll(async () => {
  root = await makeTree({
    'stream.ts': tsPacket,
    'source.ts': 'export const x: number = 1;\n',
    'noext-png': png,
    'noext-text': 'plain words\n',
    'noext-binary': Buffer.from([0x00, 0x01, 0x02, 0x03]),
    'archive.zip': Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x01]),
    'data.json': '{"a":1}',
    'empty': '',
  });
});
afterAll(() => rm(root, { recursive: true, force: true }));

function query(name: string, over: Partial<TypeQuery> = {}): TypeQuery {
  return { name, real: join(root, name), size: 10, isFifo: false, modify: true, sniff: 'full', ...over };
}

describe('detectType by extension', () => {
  it.each([
    ['movie.mp4', 'video'],
    ['movie.MKV', 'video'],
    ['clip.webm', 'video'],
    ['voice.opus', 'video'],
    ['song.mp3', 'audio'],
    ['song.flac', 'audio'],
    ['photo.JPG', 'image'],
    ['vector.svg', 'image'],
    ['pic.avif', 'image'],
    ['doc.pdf', 'pdf'],
    ['notes.txt', 'text'],
    ['readme.md', 'text'],
    ['script.py', 'text'],
    ['model.stl', 'stl'],
    ['mesh.OBJ', 'obj'],
  ])('%s is %s without reading it', async (name, type) => {
    await expect(detectType(query(name, { real: '/nonexistent/never-read' }))).resolves.toBe(type);
  });

  it('calls a text file textImmutable when the requester cannot modify', async () => {
    await expect(detectType(query('notes.txt', { modify: false }))).resolves.toBe('textImmutable');
  });

  it('calls text above 10 MiB a blob', async () => {
    await expect(detectType(query('big.txt', { size: 10 * 1024 * 1024 + 1 }))).resolves.toBe('blob');
    await expect(detectType(query('edge.txt', { size: 10 * 1024 * 1024 }))).resolves.toBe('text');
  });

  it('calls a named pipe a blob', async () => {
    await expect(detectType(query('pipe.txt', { isFifo: true }))).resolves.toBe('blob');
  });
});

describe('detectType by content', () => {
  it.each([
    ['stream.ts', 'full', 'video'],
    ['stream.ts', 'unknown', 'video'],
    ['source.ts', 'full', 'text'],
    ['source.ts', 'off', 'text'],
    ['noext-png', 'full', 'image'],
    ['noext-png', 'unknown', 'image'],
    ['noext-text', 'unknown', 'text'],
    ['noext-binary', 'full', 'blob'],
    ['noext-binary', 'off', 'text'],
    ['archive.zip', 'full', 'blob'],
    ['archive.zip', 'unknown', 'blob'],
    ['data.json', 'unknown', 'text'],
    ['data.json', 'full', 'text'],
  ] as const)('%s with sniffing %s is %s', async (name, sniff, type) => {
    await expect(detectType(query(name, { sniff }))).resolves.toBe(type);
  });

  it('calls an empty file without a media extension text', async () => {
    await expect(detectType(query('empty', { size: 0 }))).resolves.toBe('text');
  });
});

describe('sniffing helpers', () => {
  it.each([
    ['ascii', Buffer.from('hello world'), false],
    ['utf-8', Buffer.from('héllo wörld ✓'), false],
    ['a NUL byte', Buffer.from([0x68, 0x00, 0x69]), true],
    ['a control byte <= 8', Buffer.from([0x68, 0x08]), true],
    ['a tab and newline', Buffer.from('a\tb\n'), false],
    ['invalid bytes in the middle', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('abcdefgh')]), true],
    ['a character cut at the end', Buffer.concat([Buffer.from('abc'), Buffer.from('✓').subarray(0, 2)]), false],
  ])('isBinary of %s is %s', (_label, buf, out) => {
    expect(isBinary(buf)).toBe(out);
  });

  it('recognises media signatures', () => {
    expect(sniffMime(png)).toBe('image/png');
    expect(sniffMime(Buffer.from('%PDF-1.7'))).toBe('application/pdf');
    expect(sniffMime(Buffer.from('RIFF\0\0\0\0WAVEfmt '))).toBe('audio/wave');
    expect(sniffMime(Buffer.from('XXXX\0\0\0\0WAVEfmt '))).toBeUndefined();
    expect(sniffMime(Buffer.from('plain'))).toBeUndefined();
  });

  it('recognises an MPEG transport stream by its sync bytes', () => {
    expect(isMpegTs(tsPacket)).toBe(true);
    expect(isMpegTs(Buffer.from(`G${'x'.repeat(199)}`))).toBe(false);
    expect(isMpegTs(Buffer.from('GG'))).toBe(false);
  });
});
