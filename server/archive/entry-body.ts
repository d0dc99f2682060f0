import type { Readable } from 'node:stream';
import { toError, type SkipReporter } from './entry';

/** The part of an archive entry needed to read a file's bytes. */
export interface BodySource {
  name: string;
  size: number;
  open(): NodeJS.ReadableStream | Readable;
}

const PAD_CHUNK = 64 * 1024;

function toBytes(chunk: unknown): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  return Buffer.from(String(chunk));
}

/**
 * Opens a file and reads its first chunk before anything of the entry is written, so a file that
 * cannot be opened (deleted, unreadable) is noticed while it can still be skipped cleanly. Throws
 * in that case. The returned generator yields exactly `size` bytes: the header already announced
 * that size, so a file that grew is cut and one that shrank or failed mid-read is padded with
 * zeros (reported through `onShort`) instead of corrupting the rest of the archive.
 */
export async function openBody(source: BodySource, onShort: SkipReporter): Promise<AsyncGenerator<Buffer>> {
  const iterator = source.open()[Symbol.asyncIterator]();
  let first: IteratorResult<unknown>;
  try {
    first = await iterator.next();
  } catch (err) {
    await iterator.return?.();
    throw toError(err);
  }
  return exactSize(first, iterator, { source, onShort });
}

interface ExactSizeContext {
  source: BodySource;
  onShort: SkipReporter;
}

async function* exactSize(
  first: IteratorResult<unknown>,
  rest: AsyncIterator<unknown>,
  { source, onShort }: ExactSizeContext,
): AsyncGenerator<Buffer> {
  let remaining = source.size;
  let failure = 'file shrank while archiving';
  try {
    for (let step = first; !step.done && remaining > 0; step = await rest.next()) {
      const bytes = toBytes(step.value);
      const part = bytes.length > remaining ? bytes.subarray(0, remaining) : bytes;
      remaining -= part.length;
      if (part.length > 0) yield part;
    }
  } catch (err) {
    failure = `read failed: ${toError(err).message}`;
  } finally {
    // Closes the file when the consumer stops early (archive aborted) or the size is reached.
    await rest.return?.();
  }
  if (remaining > 0) onShort(source.name, new Error(`${failure}; ${remaining} bytes padded with zeros`));
  yield* zeros(remaining);
}

function* zeros(count: number): Generator<Buffer> {
  for (let left = count; left > 0; left -= PAD_CHUNK) yield Buffer.alloc(Math.min(left, PAD_CHUNK));
}
