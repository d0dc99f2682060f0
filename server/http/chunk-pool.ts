/**
 * The read buffers of file downloads. A lone download reads 1 MiB at a time (few syscalls and
 * chunks for a 2 GB file); as more run at once, each gets smaller chunks, so that the buffers in
 * flight stay near IN_FLIGHT_BUDGET: 200 clients each holding two fresh 1 MiB buffers took the
 * server's RSS past 400 MB, and the C heap kept most of it after they were gone. Finished
 * downloads hand their buffers back; a few are kept for the next ones (no malloc and free per
 * download, which fragmented the heap), the rest are left to the garbage collector.
 */
export const MAX_CHUNK = 1024 * 1024;
export const MIN_CHUNK = 64 * 1024;
/** The bytes that all downloads' read buffers aim at together (two buffers per download). */
export const IN_FLIGHT_BUDGET = 32 * 1024 * 1024;
/** The bytes of returned buffers kept for reuse. */
const KEPT_BYTES = 8 * 1024 * 1024;

let active = 0;
let keptBytes = 0;
const kept = new Map<number, Buffer[]>();

/** The largest power of two not above `n` (n >= 1). */
function floorPow2(n: number): number {
  return 2 ** Math.floor(Math.log2(n));
}

/** The chunk size for a download when `running` downloads (this one included) are under way. */
export function chunkSizeFor(running: number): number {
  const share = IN_FLIGHT_BUDGET / 2 / Math.max(1, running);
  return Math.min(MAX_CHUNK, Math.max(MIN_CHUNK, floorPow2(share)));
}

/** A download's lease on the pool: its chunk size, its buffers, and their return. */
export interface ChunkLease {
  /** Bytes per read; fixed for the download. */
  size: number;
  /** A buffer of `size` bytes, reused from a finished download when one is kept. */
  take(): Buffer;
  /** Ends the lease: `buffers` (no write holds them any more) may serve the next downloads. */
  release(buffers: readonly Buffer[]): void;
  /** Ends the lease without returning buffers (a write may still be reading them). */
  drop(): void;
}

/** Starts a download's lease; `length` bytes are to be read (a small file gets a small buffer). */
export function leaseChunks(length: number): ChunkLease {
  active++;
  const size = Math.min(chunkSizeFor(active), Math.max(1, length));
  let open = true;
  const end = (): boolean => {
    if (!open) return false;
    open = false;
    active--;
    return true;
  };
  return {
    size,
    take() {
      const reused = kept.get(size)?.pop();
      if (reused) {
        keptBytes -= reused.length;
        return reused;
      }
      return Buffer.allocUnsafeSlow(size);
    },
    release(buffers) {
      if (!end()) return;
      for (const buffer of buffers) {
        // Odd sizes (small files) are not worth keeping: the next file is unlikely to match.
        if (buffer.length < MIN_CHUNK || keptBytes + buffer.length > KEPT_BYTES) continue;
        const list = kept.get(buffer.length) ?? [];
        list.push(buffer);
        kept.set(buffer.length, list);
        keptBytes += buffer.length;
      }
    },
    drop() {
      end();
    },
  };
}

/** Empties the kept buffers (the server went idle: memory back to the system). */
export function releaseKeptChunks(): void {
  kept.clear();
  keptBytes = 0;
}

/** Downloads holding a lease now (for tests). */
export function activeLeases(): number {
  return active;
}
