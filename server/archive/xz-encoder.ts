import { encoderInit } from 'node-liblzma/wasm';
import type { ChunkEncoder } from './worker-protocol';
import { createLzmaCoder } from './xz-stream';

// A low preset for on-the-fly downloads: preset 6 runs at ~1.5 MB/s in WASM, 0-3 at 6-12 MB/s
// with nearly the same size on typical trees (packaging.md §4), and needs far less memory.
const DEFAULT_PRESET = 1;

/** A streaming xz compressor (real liblzma compiled to WASM): one .xz stream for the whole archive. */
export function createXzEncoder(preset = DEFAULT_PRESET): Promise<ChunkEncoder> {
  return createLzmaCoder({
    init: (stream) => encoderInit(stream, preset),
    outSize: 64 * 1024,
    failed: (code) => new Error(`xz compression failed (liblzma code ${code})`),
    endedEarly: () => new Error('xz compression stopped before the end of its stream'),
    stopWhenDryOnFinish: false,
  });
}
