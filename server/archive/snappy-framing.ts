import { compress } from 'snappyjs';
import { blockEncoder } from './block-encoder';
import type { ChunkEncoder } from './worker-protocol';

// Snappy framing format (github.com/google/snappy framing_format.txt), the `.sz` format that
// filebrowser's archiver writes: a stream identifier, then chunks of at most 64 KiB of input,
// each with a masked CRC-32C of the uncompressed bytes.
const STREAM_IDENTIFIER = Uint8Array.from([0xff, 0x06, 0x00, 0x00, 0x73, 0x4e, 0x61, 0x50, 0x70, 0x59]);
const CHUNK_COMPRESSED = 0x00;
const CHUNK_UNCOMPRESSED = 0x01;
const MAX_CHUNK_INPUT = 65_536;
const CRC_MASK_DELTA = 0xa282ead8;

const CRC32C_TABLE = ((): Uint32Array => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32C (Castagnoli) of the bytes, as used by snappy framing and iSCSI. */
export function crc32c(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (CRC32C_TABLE[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** The framing format's masked checksum: a CRC of data that holds CRCs is itself weak, so rotate and offset it. */
export function maskedCrc32c(bytes: Uint8Array): number {
  const crc = crc32c(bytes);
  return ((((crc >>> 15) | (crc << 17)) >>> 0) + CRC_MASK_DELTA) >>> 0;
}

function chunk(type: number, checksum: number, data: Uint8Array): Uint8Array {
  const length = 4 + data.length;
  const out = new Uint8Array(4 + length);
  const view = new DataView(out.buffer);
  view.setUint32(0, type | (length << 8), true);
  view.setUint32(4, checksum, true);
  out.set(data, 8);
  return out;
}

/** One framed chunk for up to 64 KiB of input, stored uncompressed when snappy saves less than 1/8 (as the reference encoders do). */
export function encodeSnappyChunk(input: Uint8Array): Uint8Array {
  const checksum = maskedCrc32c(input);
  const compressed = compress(input);
  if (compressed.length >= input.length - (input.length >>> 3)) return chunk(CHUNK_UNCOMPRESSED, checksum, input);
  return chunk(CHUNK_COMPRESSED, checksum, compressed);
}

/** A streaming snappy-framing compressor (the `.sz` format), pure JS. */
export function createSnappyEncoder(): ChunkEncoder {
  return blockEncoder({
    size: MAX_CHUNK_INPUT,
    head: STREAM_IDENTIFIER,
    encode: (block) => [encodeSnappyChunk(block)],
  });
}
