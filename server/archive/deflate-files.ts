import { crc32, deflateRawSync } from 'node:zlib';

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
    // An output chunk about the file's size: zlib's default 16 KiB chunk would be kept whole
    // behind every small file's result until a collection (Node returns a view into it).
    const chunkSize = Math.max(64, file.length);
    const deflated = deflateRawSync(file, { level: ZIP_LEVEL, windowBits: windowBits(file.length), chunkSize });
    return deflated.length < file.length ? { crc, deflated } : { crc };
  });
}
