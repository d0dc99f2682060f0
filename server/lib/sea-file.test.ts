import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { elfWithNotes } from '../../tests/support/elf';
import { makeTree } from '../../tests/support/tree';
import { findSeaBlob, locateSeaAssets, seaFileReader, type ReadAt } from './sea-file';

const MAGIC = 0x143da20;
const ASSETS = 1 << 3;
const CODE_CACHE = 1 << 2;

function sized(text: string | Buffer): Buffer {
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text);
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(bytes.length));
  return Buffer.concat([length, bytes]);
}

/** A SEA blob as Node lays it out: magic, flags, [format byte], path, code, [code cache], assets. */
function blob(assets: Record<string, string>, opts: { formatByte?: boolean; flags?: number } = {}): Buffer {
  const flags = opts.flags ?? ASSETS | 1;
  const head = Buffer.alloc(8);
  head.writeUInt32LE(MAGIC, 0);
  head.writeUInt32LE(flags, 4);
  const count = Buffer.alloc(8);
  count.writeBigUInt64LE(BigInt(Object.keys(assets).length));
  return Buffer.concat([
    head,
    ...(opts.formatByte === false ? [] : [Buffer.from([1])]),
    sized('/build/sea-main.cjs'),
    sized('"use strict"; main();'),
    ...(flags & CODE_CACHE ? [sized(Buffer.alloc(300, 7))] : []),
    count,
    ...Object.entries(assets).flatMap(([key, value]) => [sized(key), sized(value)]),
    sized('--expose-gc'),
  ]);
}

const reader =
  (file: Buffer): ReadAt =>
  (position, length) =>
    file.subarray(position, position + length);

const assets = { 'filemgr.cjs': 'the server bundle', 'filemgr.cache': 'its code cache', 'assets.pack': 'web files' };
const lengths = new Map(Object.entries(assets).map(([key, value]) => [key, Buffer.byteLength(value)]));

function contents(file: Buffer, spans: ReturnType<typeof locateSeaAssets>): Record<string, string> {
  return Object.fromEntries([...(spans ?? [])].map(([key, span]) => [key, file.subarray(span.offset, span.offset + span.length).toString()]));
}

describe('locateSeaAssets', () => {
  it.each([
    ['with the format byte of Node 24', { formatByte: true }],
    ['without it', { formatByte: false }],
    ['with a code cache', { flags: ASSETS | CODE_CACHE }],
  ])('finds every asset of a blob laid out %s', (_name, opts) => {
    const file = elfWithNotes([{ name: 'GNU', desc: Buffer.alloc(20, 1), type: 3 }, { name: 'NODE_SEA_BLOB', desc: blob(assets, opts) }]);
    expect(contents(file, locateSeaAssets(reader(file), lengths))).toEqual(assets);
  });

  it('reads notes aligned to 8 bytes', () => {
    const file = elfWithNotes([{ name: 'GNU', desc: Buffer.alloc(5) }, { name: 'NODE_SEA_BLOB', desc: blob(assets) }], 8);
    expect(contents(file, locateSeaAssets(reader(file), lengths))).toEqual(assets);
  });

  it('finds nothing when a key is missing or of another length than Node reports', () => {
    const file = elfWithNotes([{ name: 'NODE_SEA_BLOB', desc: blob(assets) }]);
    expect(locateSeaAssets(reader(file), new Map([...lengths, ['assets.pack.json', 10]]))).toBeUndefined();
    expect(locateSeaAssets(reader(file), new Map([...lengths, ['filemgr.cjs', 99]]))).toBeUndefined();
  });

  it('finds nothing in a file that is not an ELF executable, has no blob, or a blob it cannot read', () => {
    expect(locateSeaAssets(reader(Buffer.from('#!/bin/sh\necho hi\n')), lengths)).toBeUndefined();
    expect(locateSeaAssets(reader(elfWithNotes([{ name: 'GNU', desc: Buffer.alloc(20) }])), lengths)).toBeUndefined();
    const noAssets = elfWithNotes([{ name: 'NODE_SEA_BLOB', desc: blob(assets, { flags: 1 }) }]);
    expect(locateSeaAssets(reader(noAssets), lengths)).toBeUndefined();
    const whole = blob(assets);
    for (const cut of [6, 40, whole.length - 30]) {
      const truncated = elfWithNotes([{ name: 'NODE_SEA_BLOB', desc: whole.subarray(0, cut) }]);
      expect(locateSeaAssets(reader(truncated), lengths)).toBeUndefined();
    }
    const wrongMagic = Buffer.from(whole);
    wrongMagic.writeUInt32LE(0x1234, 0);
    expect(locateSeaAssets(reader(elfWithNotes([{ name: 'NODE_SEA_BLOB', desc: wrongMagic }])), lengths)).toBeUndefined();
  });

  it('names the span of the blob itself', () => {
    const desc = blob(assets);
    const file = elfWithNotes([{ name: 'NODE_SEA_BLOB', desc }]);
    const span = findSeaBlob(reader(file));
    expect(span && file.subarray(span.offset, span.offset + span.length)).toEqual(desc);
  });
});

describe('seaFileReader', () => {
  it('reads each asset from the file as a copy, and nothing for an unknown key', async () => {
    const dir = await makeTree();
    const path = join(dir, 'filemgr');
    writeFileSync(path, elfWithNotes([{ name: 'NODE_SEA_BLOB', desc: blob(assets) }]));
    const file = seaFileReader(lengths, path);
    expect(file?.read('filemgr.cache')?.toString()).toBe('its code cache');
    expect(file?.read('nothing')).toBeUndefined();
  });

  it('is undefined when the executable cannot be read, so the caller reads through the mapping', async () => {
    const dir = await makeTree();
    expect(seaFileReader(lengths, join(dir, 'missing'))).toBeUndefined();
    // Opens, but every read fails (EISDIR), as a read of a file on a failing disk would.
    expect(seaFileReader(lengths, dir)).toBeUndefined();
  });
});
