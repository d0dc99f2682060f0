import { decoderInit } from 'node-liblzma/wasm';
import type { ChunkEncoder } from '../worker-protocol';
import { createLzmaCoder } from '../xz-stream';
import { MalformedArchive } from './malformed';

/** liblzma's decoder memory cap: enough for every preset up to -9e (a 64 MiB dictionary). */
const MEMLIMIT = 256 * 1024 * 1024;

/** A streaming xz decompressor (liblzma in WASM, as the xz writer uses), run in the archive worker. */
export function createXzDecoder(): Promise<ChunkEncoder> {
  return createLzmaCoder({
    init: (stream) => decoderInit(stream, MEMLIMIT),
    outSize: 256 * 1024,
    failed: (code) => new MalformedArchive(`the xz data is corrupt (liblzma code ${code})`),
    endedEarly: () => new MalformedArchive('the xz data ends early'),
    stopWhenDryOnFinish: true,
  });
}
