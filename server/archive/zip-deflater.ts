import { BatchWorker } from './batch-worker';
import { deflateFiles, type DeflatedFile } from './deflate-files';
import { packFiles, unpackFiles } from './packed-files';
import type { DeflateReply, DeflateRequest } from './worker-protocol';

// A batch smaller than this is deflated on the calling thread: well under a millisecond, and a
// zip of a few small files never waits for a worker to start.
const INLINE_BYTES = 64 * 1024;

type Deflated = Extract<DeflateReply, { kind: 'deflated' }>;

/**
 * Deflates batches of small files for one zip in a worker thread, started when the first large
 * batch comes: deflate is the CPU-heavy part of a zip, and there it runs beside the main thread
 * reading the next files. Answers come in request order. close() stops the worker.
 */
export class SmallFileDeflater {
  #worker: BatchWorker<DeflateRequest, Deflated>;

  constructor(source: () => Promise<string>) {
    this.#worker = new BatchWorker(source, { format: 'zip' });
  }

  async deflate(files: readonly Uint8Array[]): Promise<DeflatedFile[]> {
    const bytes = files.reduce((sum, file) => sum + file.length, 0);
    if (bytes < INLINE_BYTES) return deflateFiles(files);
    const request: DeflateRequest = { kind: 'deflate', ...packFiles(files) };
    const reply = await this.#worker.request(request, [request.bytes.buffer as ArrayBuffer]);
    const deflated = unpackFiles(reply);
    return reply.crcs.map((crc, i) => {
      const bytesOf = deflated[i];
      return bytesOf ? { crc, deflated: bytesOf } : { crc };
    });
  }

  close(): void {
    this.#worker.close();
  }
}
