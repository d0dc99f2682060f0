import { once } from 'node:events';
import { PassThrough, type Readable } from 'node:stream';
import { toError } from './entry';

// Parts are gathered into chunks of about this size: thousands of 512-byte tar headers or zip
// records must not each cost a stream write.
const CHUNK_BYTES = 256 * 1024;

/**
 * The byte stream an archive writer produces. Writers add parts (headers, bodies, padding);
 * the output writes them in large chunks and counts every byte (zip records offsets).
 */
export class ArchiveOutput {
  readonly stream = new PassThrough();
  /** Bytes added so far, flushed or not. */
  offset = 0;
  #parts: Buffer[] = [];
  #pending = 0;

  add(part: Buffer): void {
    if (part.length === 0) return;
    const last = this.#parts.at(-1);
    // Parts that follow each other in one buffer (a batch of prepared records) stay one view.
    if (last && last.buffer === part.buffer && last.byteOffset + last.length === part.byteOffset) {
      this.#parts[this.#parts.length - 1] = Buffer.from(last.buffer, last.byteOffset, last.length + part.length);
    } else this.#parts.push(part);
    this.#pending += part.length;
    this.offset += part.length;
    if (this.#pending >= CHUNK_BYTES) this.flush();
  }

  flush(): void {
    if (this.#pending === 0) return;
    const parts = this.#parts;
    const chunk = parts.length === 1 && parts[0] ? parts[0] : Buffer.concat(parts, this.#pending);
    this.#parts = [];
    this.#pending = 0;
    if (!this.stream.destroyed) this.stream.write(chunk);
  }

  /**
   * Flushes, then waits until the stream can take more: writers call it between batches and
   * file chunks so that nothing piles up in memory while the client reads slowly.
   */
  async room(signal: AbortSignal): Promise<void> {
    this.flush();
    if (!this.stream.writableNeedDrain || signal.aborted) return;
    try {
      await once(this.stream, 'drain', { signal });
    } catch (err) {
      if (!signal.aborted) throw toError(err);
    }
  }

  end(): void {
    this.flush();
    this.stream.end();
  }
}

/** Runs a writer into a fresh output: ends the stream when it is done, destroys it when it fails. */
export function runWriter(write: (output: ArchiveOutput) => Promise<void>, signal: AbortSignal): Readable {
  const output = new ArchiveOutput();
  void write(output).then(
    () => {
      if (!signal.aborted) output.end();
    },
    (err: unknown) => output.stream.destroy(toError(err)),
  );
  return output.stream;
}
