import type { Duplex } from 'node:stream';
import { constants, createBrotliCompress, createGzip } from 'node:zlib';
import type { ArchiveFormat } from './formats';
import { WorkerCompressor } from './worker-stream';
import { createZstd } from './zstd';

// zlib streams already compress on the libuv thread pool. Brotli's default quality (11) runs at
// well under 1 MB/s, far too slow for a download made on the fly; 5 keeps most of the gain.
const BROTLI_QUALITY = 5;
const GZIP_LEVEL = 6;

/** Options for the compression stage of a tar-based archive. */
export interface CompressionOptions {
  workerSource: () => Promise<string>;
}

/** The stage that compresses a tar stream into `format`, or undefined for zip and plain tar. */
export function compressionStage(format: ArchiveFormat, options: CompressionOptions): Duplex | undefined {
  switch (format) {
    case 'zip':
    case 'tar':
      return undefined;
    case 'targz':
      return createGzip({ level: GZIP_LEVEL });
    case 'tarbr':
      return createBrotliCompress({
        params: {
          [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_GENERIC,
        },
      });
    case 'tarzst':
      return createZstd();
    case 'tarbz2':
    case 'tarxz':
    case 'tarlz4':
    case 'tarsz':
      return new WorkerCompressor(format, options.workerSource);
  }
}
