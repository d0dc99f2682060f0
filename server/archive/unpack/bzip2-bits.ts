import { MalformedArchive } from './malformed';

/** Thrown when a block needs bytes that have not arrived yet; the block is decoded again later. */
export const NEED_MORE = new Error('need more input');

/** An MSB-first bit reader over the buffered input; its position can be saved and restored. */
export class BitReader {
  buf: Buffer = Buffer.alloc(0);
  pos = 0;
  acc = 0;
  count = 0;

  /** The next `n` bits (n <= 24). */
  bits(n: number): number {
    while (this.count < n) {
      if (this.pos >= this.buf.length) throw NEED_MORE;
      this.acc = ((this.acc << 8) | this.buf[this.pos++]!) >>> 0;
      this.count += 8;
    }
    this.count -= n;
    return (this.acc >>> this.count) & ((1 << n) - 1);
  }

  bit(): number {
    return this.bits(1);
  }

  /** Drops the bits left in the current byte (after a stream's end). */
  align(): void {
    this.count -= this.count % 8;
  }

  /** True when every input byte is used and no whole byte is buffered. */
  exhausted(): boolean {
    return this.pos >= this.buf.length && this.count < 8;
  }

  save(): [number, number, number] {
    return [this.pos, this.acc, this.count];
  }

  restore([pos, acc, count]: [number, number, number]): void {
    this.pos = pos;
    this.acc = acc;
    this.count = count;
  }

  /** Forgets the consumed input (called between blocks) and appends `more`. */
  append(more: Buffer): void {
    const rest = this.buf.subarray(this.pos);
    this.buf = rest.length === 0 ? more : Buffer.concat([rest, more]);
    this.pos = 0;
  }
}

const MAX_CODE_LEN = 20;

/** One Huffman group's canonical decoding tables (libbzip2's limit/base/perm). */
export interface HuffmanTable {
  minLen: number;
  limit: Int32Array;
  base: Int32Array;
  perm: Int32Array;
}

export function huffmanTable(lengths: Uint8Array, alphaSize: number): HuffmanTable {
  let minLen = 32;
  let maxLen = 0;
  for (let i = 0; i < alphaSize; i++) {
    minLen = Math.min(minLen, lengths[i]!);
    maxLen = Math.max(maxLen, lengths[i]!);
  }
  const perm = new Int32Array(258);
  let pp = 0;
  for (let len = minLen; len <= maxLen; len++) for (let j = 0; j < alphaSize; j++) if (lengths[j] === len) perm[pp++] = j;
  const base = new Int32Array(MAX_CODE_LEN + 2);
  for (let i = 0; i < alphaSize; i++) base[lengths[i]! + 1]!++;
  for (let i = 1; i < base.length; i++) base[i]! += base[i - 1]!;
  const limit = new Int32Array(MAX_CODE_LEN + 1).fill(-1);
  let vec = 0;
  for (let i = minLen; i <= maxLen; i++) {
    vec += base[i + 1]! - base[i]!;
    limit[i] = vec - 1;
    vec <<= 1;
  }
  for (let i = minLen + 1; i <= maxLen; i++) base[i] = ((limit[i - 1]! + 1) << 1) - base[i]!;
  return { minLen, limit, base, perm };
}

export function decodeSymbol(r: BitReader, t: HuffmanTable): number {
  let len = t.minLen;
  let code = r.bits(len);
  while (code > t.limit[len]!) {
    len++;
    if (len > MAX_CODE_LEN) throw new MalformedArchive('the bzip2 data is corrupt (bad Huffman code)');
    code = (code << 1) | r.bit();
  }
  const index = code - t.base[len]!;
  if (index < 0 || index >= 258) throw new MalformedArchive('the bzip2 data is corrupt (bad Huffman code)');
  return t.perm[index]!;
}

/** bzip2's CRC: CRC-32 with the polynomial 0x04c11db7, most significant bit first. */
export const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i << 24;
    for (let k = 0; k < 8; k++) c = c & 0x80000000 ? (c << 1) ^ 0x04c11db7 : c << 1;
    table[i] = c >>> 0;
  }
  return table;
})();
