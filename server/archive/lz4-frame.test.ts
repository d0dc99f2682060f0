import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compressBlock, compressBound, createLz4Encoder } from './lz4-frame';

const run = promisify(execFile);
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'filemgr-lz4-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function encode(input: Buffer, piece: number): Buffer {
  const encoder = createLz4Encoder();
  const parts: Uint8Array[] = [];
  for (let offset = 0; offset < input.length; offset += piece) parts.push(...encoder.write(input.subarray(offset, offset + piece)));
  parts.push(...encoder.end());
  return Buffer.concat(parts);
}

/** Decodes with the reference lz4 CLI, which rejects blocks that break the format's end rules. */
async function lz4Decode(frame: Buffer, name: string): Promise<Buffer> {
  const file = join(dir, `${name}.lz4`);
  await writeFile(file, frame);
  const { stdout } = await run('lz4', ['-d', '-c', file], { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}

const repeated = (unit: string, length: number): Buffer => Buffer.from(unit.repeat(Math.ceil(length / unit.length)).slice(0, length));
const tailRepeat = ((): Buffer => {
  const head = randomBytes(1000);
  return Buffer.concat([head, head]); // the best match runs to the very end of the block
})();

describe('createLz4Encoder', () => {
  it.each<[string, Buffer, number]>([
    ['empty input', Buffer.alloc(0), 1],
    ['one byte', Buffer.from('x'), 1],
    ['12 bytes (no room for a match)', repeated('a', 12), 12],
    ['13 repeated bytes', repeated('a', 13), 13],
    ['17 repeated bytes', repeated('a', 17), 17],
    ['a 13-byte period over 5 MB', repeated('abcdefghijklm', 5_000_000), 65_536],
    ['10 MiB of zeros (three blocks, long matches)', Buffer.alloc(10 * 1024 * 1024), 1_000_000],
    ['5 MB of random bytes (stored raw)', randomBytes(5_000_000), 300_000],
    ['a repeat that ends at the block end', tailRepeat, 7],
    ['text written in small pieces', repeated('the quick brown fox jumps over the lazy dog\n', 300_000), 1000],
  ])('round-trips %s through lz4 -d', async (label, input, piece) => {
    const output = await lz4Decode(encode(input, piece), label.replace(/\W+/g, '-'));
    expect(output.length).toBe(input.length);
    expect(output.equals(input)).toBe(true);
  });

  it('compresses repetitive data and stores random data without growing it by more than framing', () => {
    expect(encode(Buffer.alloc(4_000_000), 65_536).length).toBeLessThan(20_000);
    const random = randomBytes(1_000_000);
    expect(encode(random, 65_536).length).toBe(random.length + 7 + 4 + 4);
  });
});

describe('compressBlock', () => {
  it('never starts a match in the last 12 bytes nor copies into the last 5', () => {
    // A block made only of one repeated byte matches everywhere it is allowed to.
    const src = repeated('z', 100);
    const dst = new Uint8Array(compressBound(src.length));
    const size = compressBlock(src, dst, new Int32Array(1 << 16));
    // One sequence: token, 1 literal, offset 1, match length ends 5 bytes short, then the last
    // sequence: 5 literals.
    expect(Array.from(dst.subarray(0, size))).toEqual([
      0x1f, 0x7a, 0x01, 0x00, 94 - 4 - 15, 0x50, 0x7a, 0x7a, 0x7a, 0x7a, 0x7a,
    ]);
  });
});
