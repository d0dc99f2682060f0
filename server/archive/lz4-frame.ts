/*
 * LZ4 block compressor, ported to TypeScript from lz4js 0.2.0 (lz4.js, compressBlock), with the
 * end-of-block limit fixed. Upstream lets the last match start fewer than 12 bytes before the end
 * of the block, which breaks the LZ4 block format rule "MFLIMIT"; the reference decoder (lz4 CLI)
 * then fails with "Error 66 : Decompression error" (Benzinga/lz4js issue #12, PR #13 unmerged).
 * Ported rather than vendored as JS so it is type-checked and linted like the rest of the code;
 * the frame writer below is ours.
 *
 * lz4js: Copyright (c) 2016 John Chadwick. ISC License:
 * Permission to use, copy, modify, and/or distribute this software for any purpose with or
 * without fee is hereby granted, provided that the above copyright notice and this permission
 * notice appear in all copies.
 * THE SOFTWARE IS PROVIDED "AS IS" AND THE AUTHOR DISCLAIMS ALL WARRANTIES WITH REGARD TO THIS
 * SOFTWARE INCLUDING ALL IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS. IN NO EVENT SHALL THE
 * AUTHOR BE LIABLE FOR ANY SPECIAL, DIRECT, INDIRECT, OR CONSEQUENTIAL DAMAGES OR ANY DAMAGES
 * WHATSOEVER RESULTING FROM LOSS OF USE, DATA OR PROFITS, WHETHER IN AN ACTION OF CONTRACT,
 * NEGLIGENCE OR OTHER TORTIOUS ACTION, ARISING OUT OF OR IN CONNECTION WITH THE USE OR
 * PERFORMANCE OF THIS SOFTWARE.
 */
import { blockEncoder } from './block-encoder';
import type { ChunkEncoder } from './worker-protocol';

const MIN_MATCH = 4;
const LAST_LITERALS = 5; // the last 5 bytes of a block are always literals
const MF_LIMIT = 12; // the last match must start at least 12 bytes before the block end
const MAX_OFFSET = 0xffff;
const SKIP_TRIGGER = 6;
const SKIP_START = (1 << SKIP_TRIGGER) + 3;
const HASH_LOG = 16;
const HASH_PRIME = 2654435761;
const RUN_MASK = 15;

const BLOCK_SIZE = 4 * 1024 * 1024;
const FRAME_MAGIC = [0x04, 0x22, 0x4d, 0x18];
const FLG = 0x60; // version 01, blocks independent, no checksums, no content size
const BD = 0x70; // maximum block size 4 MiB
const UNCOMPRESSED_BIT = 0x80000000;

class BlockOut {
  pos = 0;
  constructor(readonly buf: Uint8Array) {}
  byte(value: number): void {
    this.buf[this.pos++] = value;
  }
  /** The 255-run continuation of a literal or match length past its 4-bit token field. */
  lengthTail(length: number): void {
    let left = length;
    for (; left >= 255; left -= 255) this.byte(255);
    this.byte(left);
  }
  copy(src: Uint8Array, from: number, to: number): void {
    this.buf.set(src.subarray(from, to), this.pos);
    this.pos += to - from;
  }
}

interface Sequence {
  anchor: number;
  start: number;
  offset: number;
  matchLength: number;
}

function emitSequence(out: BlockOut, src: Uint8Array, seq: Sequence): void {
  const literals = seq.start - seq.anchor;
  const matchCode = seq.matchLength - MIN_MATCH;
  out.byte((Math.min(literals, RUN_MASK) << 4) | Math.min(matchCode, RUN_MASK));
  if (literals >= RUN_MASK) out.lengthTail(literals - RUN_MASK);
  out.copy(src, seq.anchor, seq.start);
  out.byte(seq.offset & 0xff);
  out.byte(seq.offset >>> 8);
  if (matchCode >= RUN_MASK) out.lengthTail(matchCode - RUN_MASK);
}

function emitLastLiterals(out: BlockOut, src: Uint8Array, anchor: number): void {
  const literals = src.length - anchor;
  out.byte(Math.min(literals, RUN_MASK) << 4);
  if (literals >= RUN_MASK) out.lengthTail(literals - RUN_MASK);
  out.copy(src, anchor, src.length);
}

function matchEnd(src: Uint8Array, start: number, candidate: number): number {
  const limit = src.length - LAST_LITERALS;
  let s = start + MIN_MATCH;
  let m = candidate + MIN_MATCH;
  while (s < limit && src[s] === src[m]) {
    s++;
    m++;
  }
  return s;
}

/**
 * Compresses one LZ4 block into `dst` (sized compressBound) and returns its length, or 0 when
 * nothing matched and the block is better stored raw.
 */
export function compressBlock(src: Uint8Array, dst: Uint8Array, table: Int32Array): number {
  if (src.length <= MF_LIMIT) return 0;
  table.fill(-1);
  const view = new DataView(src.buffer, src.byteOffset, src.byteLength);
  const out = new BlockOut(dst);
  const searchEnd = src.length - MF_LIMIT;
  let anchor = 0;
  let s = 0;
  let attempts = SKIP_START;
  while (s < searchEnd) {
    const seq = view.getUint32(s, true);
    const hash = Math.imul(seq, HASH_PRIME) >>> (32 - HASH_LOG);
    const candidate = table[hash] ?? -1;
    table[hash] = s;
    if (candidate < 0 || s - candidate > MAX_OFFSET || view.getUint32(candidate, true) !== seq) {
      // Step further the longer nothing matches, so incompressible data passes quickly.
      s += attempts++ >> SKIP_TRIGGER;
      continue;
    }
    attempts = SKIP_START;
    const end = matchEnd(src, s, candidate);
    emitSequence(out, src, { anchor, start: s, offset: s - candidate, matchLength: end - s });
    s = end;
    anchor = s;
  }
  if (anchor === 0) return 0;
  emitLastLiterals(out, src, anchor);
  return out.pos;
}

/** Upper bound of a compressed block's size. */
export function compressBound(length: number): number {
  return length + Math.floor(length / 255) + 16;
}

function xxh32Short(bytes: readonly number[]): number {
  const PRIME1 = 0x9e3779b1;
  const PRIME2 = 0x85ebca77;
  const PRIME3 = 0xc2b2ae3d;
  const PRIME5 = 0x165667b1;
  let h = (PRIME5 + bytes.length) >>> 0;
  for (const byte of bytes) {
    h = (h + Math.imul(byte, PRIME5)) >>> 0;
    h = Math.imul((h << 11) | (h >>> 21), PRIME1) >>> 0;
  }
  h = Math.imul(h ^ (h >>> 15), PRIME2) >>> 0;
  h = Math.imul(h ^ (h >>> 13), PRIME3) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}

function u32le(value: number): Uint8Array {
  const bytes = new Uint8Array(4);
  new DataView(bytes.buffer).setUint32(0, value >>> 0, true);
  return bytes;
}

/** The LZ4 frame header: magic, descriptor and its checksum (second byte of xxh32). */
export function frameHeader(): Uint8Array {
  const checksum = (xxh32Short([FLG, BD]) >>> 8) & 0xff;
  return Uint8Array.from([...FRAME_MAGIC, FLG, BD, checksum]);
}

/**
 * A streaming LZ4 frame compressor: one frame for the whole archive, made of independent 4 MiB
 * blocks, each stored raw when compression does not pay off. Readable by `lz4 -d`.
 */
export function createLz4Encoder(): ChunkEncoder {
  const table = new Int32Array(1 << HASH_LOG);
  const scratch = new Uint8Array(compressBound(BLOCK_SIZE));
  return blockEncoder({
    size: BLOCK_SIZE,
    head: frameHeader(),
    tail: u32le(0), // end mark
    encode(block) {
      const size = compressBlock(block, scratch, table);
      const raw = size === 0 || size >= block.length;
      const out = new Uint8Array(4 + (raw ? block.length : size));
      out.set(u32le(raw ? (block.length | UNCOMPRESSED_BIT) >>> 0 : size));
      out.set(raw ? block : scratch.subarray(0, size), 4);
      return [out];
    },
  });
}
