import { LZMA_FINISH, LZMA_OK, LZMA_RUN, LZMA_STREAM_END, WasmLzmaStream, code, copyFromWasm, copyToWasm, decoderInit, end, type LZMAModule } from 'node-liblzma/wasm';
import type { ChunkEncoder } from '../worker-protocol';
import { loadLiblzma } from '../xz-encoder';
import { MalformedArchive } from './malformed';

const OUT_SIZE = 256 * 1024;
/** liblzma's decoder memory cap: enough for every preset up to -9e (a 64 MiB dictionary). */
const MEMLIMIT = 256 * 1024 * 1024;

interface Coder {
  module: LZMAModule;
  stream: WasmLzmaStream;
  outPtr: number;
  ended: boolean;
}

function run(coder: Coder, input: Uint8Array, action: number): Uint8Array[] {
  const { module, stream, outPtr } = coder;
  const out: Uint8Array[] = [];
  if (coder.ended) return out;
  const inPtr = input.length > 0 ? copyToWasm(module, input) : 0;
  try {
    stream.setInput(inPtr, input.length);
    for (;;) {
      stream.setOutput(outPtr, OUT_SIZE);
      const ret = code(stream, action);
      const produced = OUT_SIZE - stream.availOut;
      if (produced > 0) out.push(copyFromWasm(module, outPtr, produced));
      if (ret === LZMA_STREAM_END) {
        coder.ended = true;
        return out;
      }
      if (ret !== LZMA_OK) throw new MalformedArchive(`the xz data is corrupt (liblzma code ${ret})`);
      if (stream.availIn === 0 && stream.availOut > 0) return out;
    }
  } finally {
    if (inPtr !== 0) module._free(inPtr);
  }
}

/** A streaming xz decompressor (liblzma in WASM, as the xz writer uses), run in the archive worker. */
export async function createXzDecoder(): Promise<ChunkEncoder> {
  const module = await loadLiblzma();
  const stream = new WasmLzmaStream(module);
  decoderInit(stream, MEMLIMIT);
  const coder: Coder = { module, stream, outPtr: module._malloc(OUT_SIZE), ended: false };
  return {
    write: (bytes) => run(coder, bytes, LZMA_RUN),
    end() {
      try {
        const out = run(coder, new Uint8Array(0), LZMA_FINISH);
        if (!coder.ended) throw new MalformedArchive('the xz data ends early');
        return out;
      } finally {
        end(stream);
        stream.free();
        module._free(coder.outPtr);
      }
    },
  };
}
