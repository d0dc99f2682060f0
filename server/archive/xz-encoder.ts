import {
  LZMA_FINISH,
  LZMA_OK,
  LZMA_RUN,
  LZMA_STREAM_END,
  WasmLzmaStream,
  code,
  copyFromWasm,
  copyToWasm,
  encoderInit,
  end,
  initModule,
  type LZMAModule,
} from 'node-liblzma/wasm';
import createLZMA from 'node-liblzma/wasm/liblzma.js';
import liblzmaWasm from 'node-liblzma/wasm/liblzma.wasm';
import type { ChunkEncoder } from './worker-protocol';

const OUT_SIZE = 64 * 1024;

// A low preset for on-the-fly downloads: preset 6 runs at ~1.5 MB/s in WASM, 0-3 at 6-12 MB/s
// with nearly the same size on typical trees (packaging.md §4), and needs far less memory.
const DEFAULT_PRESET = 1;

interface Coder {
  module: LZMAModule;
  stream: WasmLzmaStream;
  outPtr: number;
}

// The package's own loader finds liblzma.wasm through import.meta.url, which is empty once
// bundled to CJS, and its `inline` entry carries a stale binary: hand it the bytes ourselves.
export function loadLiblzma(): Promise<LZMAModule> {
  return initModule(() => createLZMA({ wasmBinary: liblzmaWasm, locateFile: (path: string) => path }));
}

function run(coder: Coder, input: Uint8Array, action: number): Uint8Array[] {
  const { module, stream, outPtr } = coder;
  const out: Uint8Array[] = [];
  const inPtr = input.length > 0 ? copyToWasm(module, input) : 0;
  try {
    stream.setInput(inPtr, input.length);
    for (;;) {
      stream.setOutput(outPtr, OUT_SIZE);
      const ret = code(stream, action);
      const produced = OUT_SIZE - stream.availOut;
      if (produced > 0) out.push(copyFromWasm(module, outPtr, produced));
      if (ret === LZMA_STREAM_END) return out;
      if (ret !== LZMA_OK) throw new Error(`xz compression failed (liblzma code ${ret})`);
      // While running, stop once the input is used up; when finishing, go on to STREAM_END.
      if (action === LZMA_RUN && stream.availIn === 0 && stream.availOut > 0) return out;
    }
  } finally {
    if (inPtr !== 0) module._free(inPtr);
  }
}

/** A streaming xz compressor (real liblzma compiled to WASM): one .xz stream for the whole archive. */
export async function createXzEncoder(preset = DEFAULT_PRESET): Promise<ChunkEncoder> {
  const module = await loadLiblzma();
  const stream = new WasmLzmaStream(module);
  encoderInit(stream, preset);
  const coder: Coder = { module, stream, outPtr: module._malloc(OUT_SIZE) };
  return {
    write: (bytes) => run(coder, bytes, LZMA_RUN),
    end() {
      try {
        return run(coder, new Uint8Array(0), LZMA_FINISH);
      } finally {
        end(stream);
        stream.free();
        module._free(coder.outPtr);
      }
    },
  };
}
