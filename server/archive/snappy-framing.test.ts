import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { uncompressStream } from 'snappy';
import { describe, expect, it } from 'vitest';
import { crc32c, createSnappyEncoder } from './snappy-framing';

function encode(input: Buffer, piece: number): Buffer {
  const encoder = createSnappyEncoder();
  const parts: Uint8Array[] = [];
  for (let offset = 0; offset < input.length; offset += piece) parts.push(...encoder.write(input.subarray(offset, offset + piece)));
  parts.push(...encoder.end());
  return Buffer.concat(parts);
}

/** Decodes with the `snappy` package (Rust snap's frame decoder, which verifies every checksum). */
async function unsnappy(framed: Buffer): Promise<Buffer> {
  // Node's and the DOM's ReadableStream types differ only nominally.
  const input = Readable.toWeb(Readable.from([framed])) as unknown as ReadableStream<Uint8Array>;
  const output = uncompressStream(input) as unknown as NodeReadableStream<Uint8Array>;
  const parts: Buffer[] = [];
  for await (const part of Readable.fromWeb(output)) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

/** Chunk types and lengths, walking the framed stream after its identifier. */
function chunks(framed: Buffer): { type: number; length: number }[] {
  const found: { type: number; length: number }[] = [];
  for (let offset = 10; offset < framed.length; ) {
    const length = framed.readUIntLE(offset + 1, 3);
    found.push({ type: framed[offset]!, length });
    offset += 4 + length;
  }
  return found;
}

describe('crc32c', () => {
  it.each([
    ['', 0x00000000],
    ['a', 0xc1d04330],
    ['123456789', 0xe3069283],
  ])('of %j is %s', (text, crc) => {
    expect(crc32c(Buffer.from(text))).toBe(crc);
  });
});

describe('createSnappyEncoder', () => {
  it.each<[string, Buffer, number]>([
    ['text in small pieces', Buffer.from('snappy framing format\n'.repeat(20_000)), 999],
    ['random bytes', randomBytes(300_000), 65_536],
    ['exactly one chunk', Buffer.alloc(65_536, 7), 65_536],
    ['one byte', Buffer.from('x'), 1],
  ])('round-trips %s through an independent decoder', async (_label, input, piece) => {
    const output = await unsnappy(encode(input, piece));
    expect(output.equals(input)).toBe(true);
  });

  it('writes checksums the decoder verifies (a flipped checksum bit is rejected)', async () => {
    const framed = encode(Buffer.from('checked '.repeat(1000)), 8000);
    framed[10 + 4] = framed[10 + 4]! ^ 1;
    await expect(unsnappy(framed)).rejects.toThrow();
  });

  it('starts with the stream identifier and cuts the input into chunks of at most 64 KiB', () => {
    const framed = encode(Buffer.from('abc'.repeat(100_000)), 50_000);
    expect(framed.subarray(0, 10)).toEqual(Buffer.from([0xff, 6, 0, 0, 0x73, 0x4e, 0x61, 0x50, 0x70, 0x59]));
    const found = chunks(framed);
    expect(found).toHaveLength(Math.ceil(300_000 / 65_536));
    expect(found.every((chunk) => chunk.type === 0x00)).toBe(true);
  });

  it('stores incompressible input as uncompressed chunks', () => {
    const found = chunks(encode(randomBytes(100_000), 100_000));
    expect(found).toEqual([
      { type: 0x01, length: 4 + 65_536 },
      { type: 0x01, length: 4 + 100_000 - 65_536 },
    ]);
  });

  it('writes a valid empty stream for empty input', async () => {
    const framed = encode(Buffer.alloc(0), 1);
    expect(framed).toEqual(Buffer.from([0xff, 6, 0, 0, 0x73, 0x4e, 0x61, 0x50, 0x70, 0x59]));
    expect((await unsnappy(framed)).length).toBe(0);
  });
});
