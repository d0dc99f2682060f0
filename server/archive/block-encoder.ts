import type { ChunkEncoder } from './worker-protocol';

/** How a buffer-only compressor is fed: fixed-size blocks, with optional bytes before and after. */
export interface BlockSpec {
  size: number;
  /** Compresses one block. The block's memory is reused afterwards: results must not alias it. */
  encode(block: Uint8Array): Uint8Array[];
  head?: Uint8Array;
  tail?: Uint8Array;
}

/**
 * Streams through a compressor that only works on whole buffers by cutting the input into
 * fixed-size blocks that are compressed independently. bzip2, xz and lz4 readers accept
 * concatenated streams or blocks, and snappy framing is chunked by design, so memory stays at one
 * block however large the archive.
 */
export function blockEncoder(spec: BlockSpec): ChunkEncoder {
  const block = new Uint8Array(spec.size);
  let filled = 0;
  let headWritten = false;
  const head = (): Uint8Array[] => {
    if (headWritten || !spec.head) return [];
    headWritten = true;
    return [spec.head.slice()];
  };
  return {
    write(bytes) {
      const out = head();
      for (let offset = 0; offset < bytes.length; ) {
        const n = Math.min(spec.size - filled, bytes.length - offset);
        block.set(bytes.subarray(offset, offset + n), filled);
        filled += n;
        offset += n;
        if (filled === spec.size) {
          out.push(...spec.encode(block));
          filled = 0;
        }
      }
      return out;
    },
    end() {
      const out = head();
      if (filled > 0) out.push(...spec.encode(block.subarray(0, filled)));
      filled = 0;
      if (spec.tail) out.push(spec.tail.slice());
      return out;
    },
  };
}
