import type { Transform } from 'node:stream';
import * as zlib from 'node:zlib';

// Zstandard's default level: about gzip -1's speed with gzip -6's ratio, right for archives made
// on the fly. Like gzip and brotli it runs on the libuv thread pool, off the event loop.
const ZSTD_LEVEL = 3;

/** node:zlib's zstd API (Node >= 22.15; the pinned @types/node predates it). */
interface ZstdZlib {
  createZstdCompress(options: { params: Record<number, number> }): Transform;
  constants: { ZSTD_c_compressionLevel: number };
}

const zstd = zlib as unknown as Partial<ZstdZlib>;

/** True when this Node can write zstd (the executable's Node always can). */
export function zstdAvailable(): boolean {
  return typeof zstd.createZstdCompress === 'function' && zstd.constants?.ZSTD_c_compressionLevel !== undefined;
}

/** A zstd compressor stream; call only when zstdAvailable(). */
export function createZstd(): Transform {
  const api = zstd as ZstdZlib;
  return api.createZstdCompress({ params: { [api.constants.ZSTD_c_compressionLevel]: ZSTD_LEVEL } });
}
