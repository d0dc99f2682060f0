import { Transform, type TransformCallback } from 'node:stream';
import type { Worker } from 'node:worker_threads';
import type { FromWorker, ToWorker, WorkerFormat, WorkerInit } from './worker-protocol';
import { spawnArchiveWorker } from './worker-spawn';

// Input is batched so thousands of small tar chunks (512-byte headers) cost few messages, and at
// most two batches are in flight: memory stays at a few hundred KiB whatever the archive size.
const BATCH_BYTES = 256 * 1024;
const MAX_IN_FLIGHT = 2;

/**
 * A Transform that compresses through a per-archive worker thread. The worker is started on
 * construction and terminated as soon as the archive is complete, fails or is destroyed.
 */
export class WorkerCompressor extends Transform {
  #worker: Worker | undefined;
  #ready: Promise<Worker | undefined>;
  #batch: Buffer[] = [];
  #batchBytes = 0;
  #inFlight = 0;
  #held: TransformCallback | undefined;
  #flushed: TransformCallback | undefined;

  constructor(format: WorkerFormat, source: () => Promise<string>) {
    super();
    this.#ready = source().then(
      (code) => this.#spawn(code, { format }),
      (err: unknown) => {
        this.destroy(err instanceof Error ? err : new Error(String(err)));
        return undefined;
      },
    );
  }

  #spawn(code: string, init: WorkerInit): Worker | undefined {
    if (this.destroyed) return undefined;
    const worker = spawnArchiveWorker(code, init);
    this.#worker = worker;
    worker.on('message', (message: FromWorker) => this.#receive(message));
    worker.on('error', (err) => this.destroy(err));
    worker.on('exit', () => {
      if (this.#worker === worker && !this.destroyed) this.destroy(new Error('archive worker exited unexpectedly'));
    });
    return worker;
  }

  #receive(message: FromWorker): void {
    if (message.kind === 'out') {
      this.push(Buffer.from(message.bytes.buffer, message.bytes.byteOffset, message.bytes.byteLength));
    } else if (message.kind === 'ack') {
      this.#inFlight--;
      const held = this.#held;
      this.#held = undefined;
      held?.();
    } else if (message.kind === 'done') {
      this.#stopWorker();
      this.#flushed?.();
    } else {
      this.destroy(new Error(`archive compression failed: ${message.message}`));
    }
  }

  #post(message: ToWorker): void {
    // then() callbacks on one promise run in registration order, so batches keep their order.
    void this.#ready.then((worker) => {
      if (message.kind === 'data') worker?.postMessage(message, [message.bytes.buffer as ArrayBuffer]);
      else worker?.postMessage(message);
    });
  }

  #sendBatch(): void {
    // A fresh, exactly-sized buffer: transferring it must not detach memory anyone else uses.
    const bytes = new Uint8Array(this.#batchBytes);
    let offset = 0;
    for (const part of this.#batch) {
      bytes.set(part, offset);
      offset += part.length;
    }
    this.#batch = [];
    this.#batchBytes = 0;
    this.#inFlight++;
    this.#post({ kind: 'data', bytes });
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.#batch.push(chunk);
    this.#batchBytes += chunk.length;
    if (this.#batchBytes < BATCH_BYTES) return callback();
    this.#sendBatch();
    if (this.#inFlight < MAX_IN_FLIGHT) callback();
    else this.#held = callback;
  }

  override _flush(callback: TransformCallback): void {
    if (this.#batchBytes > 0) this.#sendBatch();
    this.#flushed = callback;
    this.#post({ kind: 'end' });
  }

  override _destroy(err: Error | null, callback: (error?: Error | null) => void): void {
    this.#stopWorker();
    // A worker still starting is stopped as soon as it exists (#spawn checks `destroyed`).
    callback(err);
  }

  #stopWorker(): void {
    const worker = this.#worker;
    this.#worker = undefined;
    if (worker) void worker.terminate();
  }
}
