import { BitReader, CRC_TABLE, NEED_MORE, decodeSymbol, huffmanTable, type HuffmanTable } from './bzip2-bits';
import { MalformedArchive } from './malformed';
import type { ChunkEncoder } from '../worker-protocol';

/**
 * A streaming bzip2 decompressor in plain TypeScript. The bundled libbzip2-wasm only decodes a
 * whole stream into a fixed 10 MB buffer, which neither streams nor holds one block of long runs
 * (a single block may expand to ~45 MB); this decodes block by block (at most 900 kB of input and
 * one block's output held) and checks every block CRC and the stream CRC.
 */

const corrupt = (what: string): MalformedArchive => new MalformedArchive(`the bzip2 data is corrupt (${what})`);
const BLOCK_MAGIC = [0x314159, 0x265359];
const END_MAGIC = [0x177245, 0x385090];
const OUT_CHUNK = 1 << 20;

interface Tables {
  symbols: Uint8Array;
  selectors: Uint8Array;
  groups: HuffmanTable[];
  alphaSize: number;
}

/** One group's code lengths: a 5-bit start, then per symbol a delta in unary steps. */
function readLengths(r: BitReader, alphaSize: number): Uint8Array {
  const lengths = new Uint8Array(alphaSize);
  let len = r.bits(5);
  for (let i = 0; i < alphaSize; i++) {
    for (;;) {
      if (len < 1 || len > 20) throw corrupt('bad code length');
      if (r.bit() === 0) break;
      len += r.bit() === 0 ? 1 : -1;
    }
    lengths[i] = len;
  }
  return lengths;
}

function readTables(r: BitReader): Tables {
  const used = r.bits(16);
  const symbols: number[] = [];
  for (let i = 0; i < 16; i++) {
    if ((used & (0x8000 >> i)) === 0) continue;
    const bits = r.bits(16);
    for (let j = 0; j < 16; j++) if (bits & (0x8000 >> j)) symbols.push(i * 16 + j);
  }
  if (symbols.length === 0) throw corrupt('no symbols');
  const alphaSize = symbols.length + 2;
  const nGroups = r.bits(3);
  const nSelectors = r.bits(15);
  if (nGroups < 2 || nGroups > 6 || nSelectors < 1) throw corrupt('bad table header');
  const order = Array.from({ length: nGroups }, (_, i) => i);
  const selectors = new Uint8Array(nSelectors);
  for (let i = 0; i < nSelectors; i++) {
    let j = 0;
    while (r.bit() === 1) if (++j >= nGroups) throw corrupt('bad selector');
    const [g] = order.splice(j, 1);
    order.unshift(g!);
    selectors[i] = g!;
  }
  const groups: HuffmanTable[] = [];
  for (let t = 0; t < nGroups; t++) groups.push(huffmanTable(readLengths(r, alphaSize), alphaSize));
  return { symbols: Uint8Array.from(symbols), selectors, groups, alphaSize };
}

/** Huffman + MTF + RUNA/RUNB: the block's BWT-transformed bytes into tt (low 8 bits), and counts. */
interface Symbols {
  tt: Uint32Array;
  n: number;
  counts: Int32Array;
}

function readSymbols(r: BitReader, tb: Tables, maxBlock: number): Symbols {
  const tt = new Uint32Array(maxBlock);
  const counts = new Int32Array(256);
  const mtf = Uint8Array.from({ length: 256 }, (_, i) => i);
  const eob = tb.alphaSize - 1;
  let n = 0;
  let sel = 0;
  let left = 0;
  let table = tb.groups[0]!;
  let run = 0;
  let runBit = 1;
  for (;;) {
    if (left === 0) {
      if (sel >= tb.selectors.length) throw corrupt('too few selectors');
      table = tb.groups[tb.selectors[sel++]!]!;
      left = 50;
    }
    left--;
    const sym = decodeSymbol(r, table);
    if (sym <= 1) {
      run += runBit << sym;
      runBit <<= 1;
      if (run > maxBlock) throw corrupt('run too long');
      continue;
    }
    if (run > 0) {
      if (n + run > maxBlock) throw corrupt('block too long');
      const b = tb.symbols[mtf[0]!]!;
      counts[b]! += run;
      tt.fill(b, n, n + run);
      n += run;
      run = 0;
      runBit = 1;
    }
    if (sym === eob) return { tt, n, counts };
    if (n >= maxBlock) throw corrupt('block too long');
    const at = sym - 1;
    const v = mtf[at]!;
    mtf.copyWithin(1, 0, at);
    mtf[0] = v;
    const b = tb.symbols[v]!;
    counts[b]!++;
    tt[n++] = b;
  }
}

/** Inverse BWT then the initial run-length decoding; pushes the block's bytes; returns its CRC. */
function emitBlock({ tt, n, counts }: Symbols, origPtr: number, push: (b: Buffer) => void): number {
  if (origPtr >= n) throw corrupt('bad origin pointer');
  const cf = new Int32Array(256);
  for (let i = 1; i < 256; i++) cf[i] = cf[i - 1]! + counts[i - 1]!;
  for (let i = 0; i < n; i++) tt[cf[tt[i]! & 0xff]!++]! |= i << 8;
  let out = Buffer.allocUnsafe(OUT_CHUNK);
  let o = 0;
  let crc = 0xffffffff;
  let last = -1;
  let same = 0;
  let pos = tt[origPtr]! >>> 8;
  const put = (b: number): void => {
    if (o === OUT_CHUNK) {
      push(out);
      out = Buffer.allocUnsafe(OUT_CHUNK);
      o = 0;
    }
    out[o++] = b;
    crc = (crc << 8) ^ CRC_TABLE[((crc >>> 24) ^ b) & 0xff]!;
  };
  for (let k = 0; k < n; k++) {
    pos = tt[pos]!;
    const b = pos & 0xff;
    pos >>>= 8;
    if (same === 4) {
      for (let i = 0; i < b; i++) put(last);
      same = 0;
      continue;
    }
    same = b === last ? same + 1 : 1;
    last = b;
    put(b);
  }
  if (o > 0) push(out.subarray(0, o));
  return ~crc >>> 0;
}

class Bzip2State {
  r = new BitReader();
  maxBlock = 0;
  streamCrc = 0;
  /** 'header': a stream header is due; 'block': a block or the stream's end is due. */
  phase: 'header' | 'block' | 'done' = 'header';
  streams = 0;

  /** Decodes what the buffered input allows; false when it needs more bytes. */
  step(push: (b: Buffer) => void): boolean {
    const mark = this.r.save();
    try {
      if (this.phase === 'header') this.header();
      else this.block(push);
      return true;
    } catch (err) {
      if (err !== NEED_MORE) throw err;
      this.r.restore(mark);
      return false;
    }
  }

  header(): void {
    const r = this.r;
    const b = r.bits(8);
    const z = r.bits(8);
    const h = r.bits(8);
    const level = r.bits(8) - 0x30;
    if (b !== 0x42 || z !== 0x5a || h !== 0x68 || level < 1 || level > 9) {
      if (this.streams > 0) return void (this.phase = 'done');
      throw new MalformedArchive('not bzip2 data');
    }
    this.maxBlock = level * 100_000;
    this.streamCrc = 0;
    this.phase = 'block';
  }

  block(push: (b: Buffer) => void): void {
    const r = this.r;
    const magic = [r.bits(24), r.bits(24)];
    const crc = ((r.bits(16) << 16) | r.bits(16)) >>> 0;
    if (magic[0] === END_MAGIC[0] && magic[1] === END_MAGIC[1]) {
      if (crc !== this.streamCrc) throw corrupt('stream CRC mismatch');
      r.align();
      this.streams++;
      this.phase = 'header';
      return;
    }
    if (magic[0] !== BLOCK_MAGIC[0] || magic[1] !== BLOCK_MAGIC[1]) throw corrupt('bad block header');
    if (r.bit() === 1) throw new MalformedArchive('randomised bzip2 blocks (bzip2 0.9) are not supported');
    const origPtr = r.bits(24);
    if (emitBlock(readSymbols(r, readTables(r), this.maxBlock), origPtr, push) !== crc) throw corrupt('block CRC mismatch');
    this.streamCrc = (((this.streamCrc << 1) | (this.streamCrc >>> 31)) ^ crc) >>> 0;
  }
}

/** Input held before a block is tried (a block of level 9 is at most ~1.1 MB in practice). */
const TRY_AT = 1_200_000;

/**
 * A bzip2 decompressor as a chunk coder (it runs in the archive worker, off the event loop);
 * concatenated streams, as pbzip2 and our own writer make, are read as one.
 */
export function createBzip2Decoder(): ChunkEncoder {
  const s = new Bzip2State();
  let wait = 0;
  const drain = (final: boolean): Uint8Array[] => {
    const out: Uint8Array[] = [];
    while (s.phase !== 'done' && (final || s.r.buf.length - s.r.pos >= wait)) {
      if (s.step((b) => out.push(b))) {
        s.r.append(Buffer.alloc(0));
        wait = TRY_AT;
        continue;
      }
      if (!final) wait = (s.r.buf.length - s.r.pos) * 2;
      else if (s.phase === 'header' && s.streams > 0 && s.r.exhausted()) s.phase = 'done';
      else throw corrupt('the data ends early');
    }
    return out;
  };
  return {
    write(bytes) {
      if (s.phase !== 'done') s.r.append(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      return drain(false);
    },
    end: () => drain(true),
  };
}
