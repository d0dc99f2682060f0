import { LZMA_FINISH, LZMA_OK, LZMA_RUN, LZMA_STREAM_END, WasmLzmaStream, code, copyFromWasm, copyToWasm, end, initModule, type LZMAModule } from 'node-liblzma/wasm';
import createLZMA from 'node-liblzma/wasm/liblzma.js';
import liblzmaWasm from 'node-liblzma/wasm/liblzma.wasm';
import type { ChunkEncoder } from './worker-protocol';

// The package's own loader finds liblzma.wasm through import.meta.url, which is empty once
// bundled to CJS, and its `inline` entry carries a stale binary: hand it the bytes ourselves.
function loadLiblzma(): Promise<LZMAModule> {
  return initModule(() => createLZMA({ wasmBinary: liblzmaWasm, locateFile: (path: string) => path }));
}

/** How one direction of liblzma differs: its setup, output buffer and errors. */
export interface LzmaDirection {
  /** encoderInit or decoderInit with its argument. */
  init(stream: WasmLzmaStream): void;
  outSize: number;
  /** A liblzma code other than OK or STREAM_END. */
  failed(code: number): Error;
  /** The input ended before the stream did (a decoder given truncated data). */
  endedEarly(): Error;
  /**
   * Finishing stops once the input is used up and output space is left (a decoder: the data is
   * truncated); otherwise finishing goes on to STREAM_END (an encoder flushing what it holds).
   */
  stopWhenDryOnFinish: boolean;
}

/** A streaming liblzma coder (real liblzma compiled to WASM) as the archive worker's chunk encoder. */
export async function createLzmaCoder(direction: LzmaDirection): Promise<ChunkEncoder> {
  const module = await loadLiblzma();
  const stream = new WasmLzmaStream(module);
  direction.init(stream);
  const outPtr = module._malloc(direction.outSize);
  let ended = false;
  const run = (input: Uint8Array, action: number): Uint8Array[] => {
    const out: Uint8Array[] = [];
    if (ended) return out;
    const inPtr = input.length > 0 ? copyToWasm(module, input) : 0;
    try {
      stream.setInput(inPtr, input.length);
      for (;;) {
        stream.setOutput(outPtr, direction.outSize);
        const ret = code(stream, action);
        const produced = direction.outSize - stream.availOut;
        if (produced > 0) out.push(copyFromWasm(module, outPtr, produced));
        if (ret === LZMA_STREAM_END) {
          ended = true;
          return out;
        }
        if (ret !== LZMA_OK) throw direction.failed(ret);
        const dry = stream.availIn === 0 && stream.availOut > 0;
        if (dry && (action === LZMA_RUN || direction.stopWhenDryOnFinish)) return out;
      }
    } finally {
      if (inPtr !== 0) module._free(inPtr);
    }
  };
  return {
    write: (bytes) => run(bytes, LZMA_RUN),
    end() {
      try {
        const out = run(new Uint8Array(0), LZMA_FINISH);
        if (!ended) throw direction.endedEarly();
        return out;
      } finally {
        end(stream);
        stream.free();
        module._free(outPtr);
      }
    },
  };
}
