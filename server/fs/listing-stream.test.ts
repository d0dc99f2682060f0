import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeTree } from '../../tests/support/tree';
import type { Sorting } from '../state/schema';
import { listDirectoryJson } from './listing';
import { streamDirectoryJson } from './listing-stream';
import { createGate } from './scope';
import { TEMP_PREFIX } from './hidden';

/** Every kind of entry whose order or text could differ between the two ways of listing. */
const TREE = {
  'docs/f10.txt': 'ten',
  'docs/f2.txt': 'two',
  'docs/F1.txt': 'one',
  'docs/a.TXT': 'A',
  'docs/A.txt': 'a',
  'docs/zdir/': null,
  'docs/Adir/': null,
  'docs/movie.mp4': 'v',
  'docs/movie.srt': 's',
  'docs/Subs/movie.en.vtt': 's',
  'docs/noext': 'x',
  'docs/link-to-dir': { symlink: 'zdir' },
  'docs/link-to-file': { symlink: 'f2.txt' },
  'docs/dangling': { symlink: 'nothing-here' },
  'docs/escape': { symlink: '../../..' },
  [`docs/${TEMP_PREFIX}upload`]: 'partial',
  'docs/.hidden': 'h',
};

async function both(sorting: Sorting, extra: { dotfiles?: boolean } = {}) {
  const root = await makeTree(TREE);
  const gate = await createGate({ root, followExternalSymlinks: false, ...(extra.dotfiles === false ? { allows: (p: string) => !p.split('/').some((s) => s.startsWith('.')) } : {}) });
  const dir = await gate.resolve('/docs');
  const opts = { modify: true, sniff: 'off' as const, sorting };
  const collected = await listDirectoryJson(gate, dir, opts);
  const stream = await streamDirectoryJson(gate, dir, opts);
  const items: string[] = [];
  for await (const batch of stream.items) items.push(...batch);
  return { collected, streamed: { items, ...stream.counts() }, root };
}

describe('streamDirectoryJson', () => {
  it.each<Sorting>([
    { by: 'name', asc: false },
    { by: 'name', asc: true },
    { by: 'size', asc: true },
    { by: 'modified', asc: false },
    { by: 'other', asc: true },
    { by: 'other', asc: false },
  ])('lists the same items, texts and counts as listDirectoryJson, sorted %o', async (sorting) => {
    const { collected, streamed } = await both(sorting);
    expect(streamed).toEqual(collected);
    expect(streamed.items.length).toBeGreaterThan(10);
  });

  it('puts directories and links to directories first, names naturally (equal names in byte order), and leaves out what a listing hides', async () => {
    const { streamed } = await both({ by: 'name', asc: false }, { dotfiles: false });
    const names = streamed.items.map((i) => (JSON.parse(i) as { name: string }).name);
    expect(names).toEqual(['Adir', 'link-to-dir', 'Subs', 'zdir', 'A.txt', 'a.TXT', 'dangling', 'F1.txt', 'f2.txt', 'f10.txt', 'link-to-file', 'movie.mp4', 'movie.srt', 'noext']);
    expect(streamed).toMatchObject({ numDirs: 4, numFiles: 10 });
  });

  it('gives a video the subtitles beside it and in a Subs folder', async () => {
    const { streamed } = await both({ by: 'name', asc: false });
    const movie = streamed.items.map((i) => JSON.parse(i) as { name: string; subtitles?: string[] }).find((i) => i.name === 'movie.mp4');
    expect(movie?.subtitles).toEqual(['/docs/movie.srt', '/docs/Subs/movie.en.vtt']);
  });

  it('refuses a directory that cannot be read before anything is streamed', async () => {
    const root = await makeTree({ 'a.txt': 'x' });
    const gate = await createGate({ root, followExternalSymlinks: false });
    const file = await gate.resolve('/a.txt');
    await expect(streamDirectoryJson(gate, { ...file, real: join(root, 'a.txt') }, { modify: true, sniff: 'off', sorting: { by: 'name', asc: false } })).rejects.toMatchObject({ code: expect.any(String) as unknown });
  });
});
