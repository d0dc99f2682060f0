import type { Readable } from 'node:stream';

/** Where batches go: positional vectored writes (a FileHandle; tests pass a fake disk). */
export interface PositionalFile {
  writev(buffers: Buffer[], position: number): Promise<{ bytesWritten: number }>;
}

/** How a writer batches: bytes gathered before a write, and writes running at once. */
export interface BatchShape {
  batchBytes: number;
  depth: number;
}

/** 4 MiB batches, three written while the next arrives (at most 16 MiB held per upload). */
export const DEFAULT_BATCHES: BatchShape = { batchBytes: 4 * 1024 * 1024, depth: 3 };

function dropBytes(buffers: Buffer[], count: number): Buffer[] {
  let left = count;
  const out: Buffer[] = [];
  for (const b of buffers) {
    if (left >= b.length) {
      left -= b.length;
      continue;
    }
    out.push(b.subarray(left));
    left = 0;
  }
  return out;
}

async function writeAll(file: PositionalFile, buffers: Buffer[], position: number): Promise<void> {
  let rest = buffers;
  let at = position;
  while (rest.length > 0) {
    const { bytesWritten } = await file.writev(rest, at);
    // A disk that accepts nothing would otherwise be asked again for ever.
    if (bytesWritten <= 0) throw Object.assign(new Error('the disk accepted no bytes'), { code: 'EIO' });
    at += bytesWritten;
    rest = dropBytes(rest, bytesWritten);
  }
}

/**
 * Writes a stream of chunks to a file in 4 MiB batches, each a single writev at its own position,
 * with a few batches written while the next arrives: the disk works while the network delivers,
 * and a 2 GB upload costs hundreds of system calls instead of tens of thousands of small writes
 * each waiting for the last.
 */
export class BatchedWriter {
  #parts: Buffer[] = [];
  #bytes = 0;
  #inFlight: Promise<void>[] = [];
  #failure: Error | undefined;
  #completed: number;
  /** The writes' completions, taken in the order of their positions. */
  #inOrder: Promise<void> = Promise.resolve();

  constructor(
    private readonly file: PositionalFile,
    private position: number,
    private readonly shape: BatchShape = DEFAULT_BATCHES,
  ) {
    this.#completed = position;
  }

  /** The end of the bytes every write has returned for, from the start position on without a gap. */
  get completed(): number {
    return this.#completed;
  }

  /** Queues a chunk; once a batch is full and `depth` writes run, waits for the oldest. Throws a failed write's error. */
  async add(chunk: Buffer): Promise<void> {
    if (this.#failure !== undefined) throw this.#failure;
    this.#parts.push(chunk);
    this.#bytes += chunk.length;
    if (this.#bytes < this.shape.batchBytes) return;
    if (this.#inFlight.length >= this.shape.depth) await this.#inFlight.shift();
    this.flush();
  }

  /** Starts writing what is gathered. */
  flush(): void {
    if (this.#bytes === 0) return;
    const write = writeAll(this.file, this.#parts, this.position).catch((err: unknown) => {
      this.#failure ??= err instanceof Error ? err : new Error(String(err));
      throw this.#failure;
    });
    // Observed by add() or settle(); must not surface as an unhandled rejection before that.
    write.catch(() => undefined);
    this.#inFlight.push(write);
    const end = this.position + this.#bytes;
    // Writes run side by side: only once every earlier one returned do this one's bytes extend the prefix.
    this.#inOrder = this.#inOrder.then(() => write).then(
      () => {
        if (this.#failure === undefined) this.#completed = end;
      },
      () => undefined,
    );
    this.position = end;
    this.#parts = [];
    this.#bytes = 0;
  }

  /** Waits for every write started; throws the first failure (the file may then hold a gap). */
  async settle(): Promise<void> {
    await Promise.allSettled(this.#inFlight.splice(0));
    if (this.#failure !== undefined) throw this.#failure;
  }
}

/**
 * Reads a whole body into a writer and writes its last batch; returns the bytes received. On a
 * failure (body or disk) it waits for the writes already started before rejecting, so the
 * caller may close or remove the file at once.
 */
export async function writeBody(body: Readable, writer: BatchedWriter): Promise<number> {
  let received = 0;
  try {
    // destroyOnReturn false: a failed write must not destroy the connection's socket.
    for await (const chunk of body.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer | string>) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      received += bytes.length;
      await writer.add(bytes);
    }
  } catch (err) {
    await writer.settle().catch(() => undefined);
    throw err;
  }
  writer.flush();
  await writer.settle();
  return received;
}
