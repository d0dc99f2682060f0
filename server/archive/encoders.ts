import type { ChunkEncoder, WorkerFormat } from './worker-protocol';

/**
 * The compressor for a format. Each is imported on demand so a worker only instantiates the
 * WASM module or allocates the buffers of the one format it serves.
 */
export async function createEncoder(format: WorkerFormat): Promise<ChunkEncoder> {
  switch (format) {
    case 'tarbz2':
      return (await import('./bzip2-encoder')).createBzip2Encoder();
    case 'tarxz':
      return (await import('./xz-encoder')).createXzEncoder();
    case 'tarlz4':
      return (await import('./lz4-frame')).createLz4Encoder();
    case 'tarsz':
      return (await import('./snappy-framing')).createSnappyEncoder();
    case 'unbz2':
      return (await import('./unpack/bzip2-decoder')).createBzip2Decoder();
    case 'unxz':
      return (await import('./unpack/xz-decoder')).createXzDecoder();
  }
}
