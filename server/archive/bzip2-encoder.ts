import createBzip2, { type Bzip2Compressor } from 'libbzip2-wasm';
import { blockEncoder } from './block-encoder';
import type { ChunkEncoder } from './worker-protocol';

// One bzip2 block at level 9 holds 900,000 bytes minus a few of overhead; staying just under
// it makes each chunk exactly one block, so chunking costs no compression.
const CHUNK = 899_000;
const LEVEL = 9;
const WORK_FACTOR = 30;

// The emscripten module is a thenable resolving to itself: awaiting it directly never settles,
// so drop `then` before handing it to a promise (packaging.md §4).
function loadBzip2(): Promise<Bzip2Compressor> {
  return new Promise((resolve) => {
    const module = createBzip2();
    module.then?.((ready) => {
      delete ready.then;
      resolve(ready);
    });
  });
}

/** A bzip2 compressor writing one complete bzip2 stream per chunk; bzip2 -d reads them as one file. */
export async function createBzip2Encoder(): Promise<ChunkEncoder> {
  const bzip2 = await loadBzip2();
  return blockEncoder({
    size: CHUNK,
    encode(block) {
      const { error, output } = bzip2.compressBZ2(block, LEVEL, WORK_FACTOR);
      if (error !== 0) throw new Error(`bzip2 compression failed (code ${error})`);
      return [output.slice()];
    },
  });
}
