import { crc32, deflateRawSync } from 'node:zlib';
import type { PackedFiles } from './worker-protocol';

/** zip -6, the level zip tools use by default. */
export const ZIP_LEVEL = 6;

/** A small file ready for its zip entry. */
export interface DeflatedFile {
  crc: number;
  /** The deflated bytes; undefined when deflating did not make the file smaller (it is stored). */
  deflated?: Uint8Array;
}

// zlib matches at most the window size minus this lookahead back.
const MIN_LOOKAHEAD = 262;

/**
 * The smallest window that covers the whole file: deflate never looks further back than the
 * file is long, so the output is the same as with the full 32 KiB window, and setting up a
 * smaller one is measurably cheaper for thousands of small files.
 */
function windowBits(length: number): number {
  return Math.min(15, Math.max(9, Math.ceil(Math.log2(length + MIN_LOOKAHEAD + 1))));
}

/** Deflates each file on its own (the caller's thread: the zip worker, or the main thread for a few bytes). */
export function deflateFiles(files: readonly Uint8Array[]): DeflatedFile[] {
  return files.map((file) => {
    const crc = crc32(file);
    if (file.length === 0) return { crc };
    const deflated = deflateRawSync(file, { level: ZIP_LEVEL, windowBits: windowBits(file.length) });
    return deflated.length < file.length ? { crc, deflated } : { crc };
  });
}

/** Packs buffers into one fresh buffer that the receiver may own (see PackedFiles). */
export function packFiles(files: readonly (Uint8Array | undefined)[]): PackedFiles {
  const sizes = files.map((file) => file?.length ?? -1);
  const bytes = new Uint8Array(sizes.reduce((sum, size) => sum + Math.max(size, 0), 0));
  let offset = 0;
  for (const file of files) {
    if (!file) continue;
    bytes.set(file, offset);
    offset += file.length;
  }
  return { bytes, sizes };
}

/** The buffers of a packed batch, as views into it (undefined where the size is -1). */
export function unpackFiles({ bytes, sizes }: PackedFiles): (Buffer | undefined)[] {
  let offset = 0;
  return sizes.map((size) => {
    if (size < 0) return undefined;
    const view = Buffer.from(bytes.buffer, bytes.byteOffset + offset, size);
    offset += size;
    return view;
  });
}
