/** Formats whose compressor runs in a worker thread (WASM or pure JS, CPU-bound). */
export type WorkerFormat = 'tarbz2' | 'tarxz' | 'tarlz4' | 'tarsz';

/** Passed as workerData: which compressor the worker runs. */
export interface WorkerInit {
  format: WorkerFormat;
}

/** Main thread to worker: a batch of tar bytes, or the end of the input. */
export type ToWorker = { kind: 'data'; bytes: Uint8Array } | { kind: 'end' };

/**
 * Worker to main thread: compressed bytes, `ack` once a data batch is fully processed (flow
 * control), `done` after the end was flushed, or a fatal error.
 */
export type FromWorker =
  | { kind: 'out'; bytes: Uint8Array }
  | { kind: 'ack' }
  | { kind: 'done' }
  | { kind: 'error'; message: string };

/** A compressor that turns input bytes into output chunks synchronously. */
export interface ChunkEncoder {
  write(bytes: Uint8Array): Uint8Array[];
  end(): Uint8Array[];
}
