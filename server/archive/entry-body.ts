import type { Readable } from 'node:stream';
import type { ArchiveOutput } from './archive-output';
import { toError, type AcceptedEntry, type SkipReporter, type WriterContext } from './entry';

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

/** A file's content as exactly `size` bytes; `return()` closes the file even before the first read. */
export interface FileBody extends AsyncIterableIterator<Buffer> {
  return(): Promise<IteratorResult<Buffer>>;
}

/**
 * Opens a file and reads its first chunk before anything of the entry is written, so a file that
 * cannot be opened (deleted, unreadable) is noticed while it can still be skipped cleanly. Throws
 * in that case. The body yields exactly `size` bytes: the header already announced that size, so
 * a file that grew is cut and one that shrank or failed mid-read is padded with zeros (reported
 * through `onShort`) instead of corrupting the rest of the archive.
 */
export async function openBody(source: BodySource, onShort: SkipReporter): Promise<FileBody> {
  const file = source.open()[Symbol.asyncIterator]();
  let first: IteratorResult<unknown>;
  try {
    first = await file.next();
  } catch (err) {
    await file.return?.();
    throw toError(err);
  }
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    await file.return?.();
  };
  const body = exactSize({ first, file, close }, { source, onShort });
  const iterator: FileBody = {
    [Symbol.asyncIterator]: () => iterator,
    next: () => body.next(),
    // An async generator that never started skips its `finally` when returned, so the file is
    // closed here too: an archive aborted between opening a file and reading it must not leak it.
    async return() {
      await body.return(undefined);
      await close();
      return { done: true, value: undefined };
    },
  };
  return iterator;
}

interface OpenedFile {
  first: IteratorResult<unknown>;
  file: AsyncIterator<unknown>;
  close: () => Promise<void>;
}

interface ExactSizeContext {
  source: BodySource;
  onShort: SkipReporter;
}

async function* exactSize({ first, file, close }: OpenedFile, { source, onShort }: ExactSizeContext): AsyncGenerator<Buffer> {
  let remaining = source.size;
  let failure = 'file shrank while archiving';
  try {
    for (let step = first; !step.done && remaining > 0; step = await file.next()) {
      const bytes = toBytes(step.value);
      const part = bytes.length > remaining ? bytes.subarray(0, remaining) : bytes;
      remaining -= part.length;
      if (part.length > 0) yield part;
    }
  } catch (err) {
    failure = `read failed: ${toError(err).message}`;
  } finally {
    // Closes the file when the consumer stops early (archive aborted) or the size is reached.
    await close();
  }
  if (remaining > 0) onShort(source.name, new Error(`${failure}; ${remaining} bytes padded with zeros`));
  yield* zeros(remaining);
}

function* zeros(count: number): Generator<Buffer> {
  for (let left = count; left > 0; left -= PAD_CHUNK) yield Buffer.alloc(Math.min(left, PAD_CHUNK));
}

/**
 * A streamed entry's body, opened before any of the entry is written and handed over once the
 * output has room: undefined when the file could not be opened (reported through `onSkip`) or
 * the archive was aborted while waiting (the file is closed again).
 */
export async function openWhenRoom(accepted: AcceptedEntry, output: ArchiveOutput, ctx: WriterContext): Promise<FileBody | undefined> {
  let body: FileBody;
  try {
    body = await openBody(accepted.entry, ctx.onSkip);
  } catch (err) {
    ctx.onSkip(accepted.name, toError(err));
    return undefined;
  }
  await output.room(ctx.signal);
  if (!ctx.signal.aborted) return body;
  await body.return();
  return undefined;
}
