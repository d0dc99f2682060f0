import { closeSync, constants, fdatasync, fstatSync, ftruncate, openSync, writev } from 'node:fs';
import { open } from 'node:fs/promises';
import { promisify } from 'node:util';
import type { Readable } from 'node:stream';
import { AppError } from '../errors';
import { BatchedWriter, type PositionalFile } from '../fs/batched-writer';
import { fsError, translated } from '../fs/fs-error';

/**
 * The byte path of a PATCH: the request body appended to an upload's temporary file. Writes are
 * gathered into 4 MiB batches, and a few batches are written while the next arrives. The file is
 * opened O_DSYNC, so every batch is on disk when its write returns: the disk works while the
 * network delivers the rest of the chunk, instead of one fsync of the whole chunk at its end
 * stalling the upload (tus answers each PATCH only once its bytes are durable, api.md §3.17).
 */

/** Read and write, each write durable when it returns (no such flag on Windows: the final fdatasync). */
const DURABLE_WRITES = constants.O_RDWR | (constants.O_DSYNC ?? 0);
/** Whether a write that returned is on disk (else only the final fdatasync makes it so). */
const WRITES_ARE_DURABLE = constants.O_DSYNC !== undefined;

/** Where a PATCH writes and how much it may write. */
export interface AppendSpec {
  /** The client's Upload-Offset: must be the temporary file's size (409 otherwise). */
  offset: number;
  /** Bytes still missing: declared length minus offset. */
  room: number;
  /** The request's Content-Length, when sent: more than `room` is refused (413) before any write. */
  declared?: number;
  /** Milliseconds without a byte after which the client is taken for gone (default STALL_MS). */
  stallMs?: number;
  /** Aborted when the upload is deleted or replaced: the PATCH ends at once and answers 404. */
  signal?: AbortSignal;
  /** Handed, once the body starts, what tells the offset durable so far (a HEAD asks it mid-PATCH). */
  watch?: (durable: () => number) => void;
}

/**
 * A client that stops sending without closing would hold its upload's lock (and so every HEAD and
 * PATCH of the upload) for ever: after this long without a byte its connection is dropped.
 */
export const STALL_MS = 60_000;

/** The size of an upload's temporary file, which is the upload's offset. */
export async function sizeOf(temp: string): Promise<number> {
  return translated(async () => {
    const fh = await open(temp, 'r');
    try {
      return Number((await fh.stat()).size);
    } finally {
      await fh.close();
    }
  });
}

/**
 * Appends a PATCH body to `temp` at `spec.offset` and fsyncs it (api.md §3.17 step 7). A body longer
 * than `spec.room` answers 413 and the file is cut back to the offset; a body cut short by the
 * client keeps the bytes that arrived, so the upload resumes from them. The body stream is never
 * destroyed, so the connection can still carry a response. Returns the bytes appended.
 */
export async function appendBody(temp: string, spec: AppendSpec, body: Readable): Promise<number> {
  // Opening, fstat and closing a local file take microseconds and no disk I/O, so they are made
  // synchronously: on a busy small machine each thread-pool round trip waits a millisecond or
  // more for a core to run it, and every PATCH would pay several. Writes and fsync, which wait
  // for the disk, stay asynchronous.
  const fh = uploadFile(await translated(() => Promise.resolve(openSync(temp, DURABLE_WRITES))));
  try {
    // tus 1.0: 409 when Upload-Offset differs from the bytes received so far.
    if (fstatSync(fh.fd).size !== spec.offset) throw new AppError('exists');
    if (spec.declared !== undefined && spec.declared > spec.room) throw new AppError('too_large');
    const batches = new BatchedWriter(fh, spec.offset);
    spec.watch?.(() => (WRITES_ARE_DURABLE ? batches.completed : spec.offset));
    const received = await receive(body, spec, batches).catch(async (err: unknown) => {
      // An AppError cuts the file back to the offset (keepOrCut): nothing past it counts from now on.
      if (err instanceof AppError) spec.watch?.(() => spec.offset);
      await keepOrCut(fh, batches, { err, offset: spec.offset });
      throw err;
    });
    batches.flush();
    await batches.settle();
    await fh.sync();
    return received;
  } catch (err) {
    throw fsError(err);
  } finally {
    closeSync(fh.fd);
  }
}

/** The operations a PATCH makes on its open temporary file. */
interface UploadFile extends PositionalFile {
  fd: number;
  sync(): Promise<void>;
  truncate(length: number): Promise<void>;
}

function uploadFile(fd: number): UploadFile {
  return {
    fd,
    writev: (buffers, position) =>
      new Promise((resolve, reject) => {
        writev(fd, buffers, position, (err, bytesWritten) => (err ? reject(err) : resolve({ bytesWritten })));
      }),
    // fdatasync, not fsync: the bytes and the size are what a resumed upload needs; flushing the
    // file's times as well cost a journal commit per PATCH, and after O_DSYNC writes there is
    // nothing else left to flush.
    sync: () => promisify(fdatasync)(fd),
    truncate: (length) => promisify(ftruncate)(fd, length),
  };
}

/**
 * Drops the body's connection once no byte came for `ms` while the body was being waited for
 * (time spent writing to the disk does not count). One timer, restarted per chunk: a timer
 * created per 64 KiB chunk was tens of thousands of timer objects per GiB.
 */
function stallGuard(body: Readable, ms: number): { writing(on: boolean): void; stop(): void } {
  let writing = false;
  const timer = setTimeout(function expire() {
    if (writing) timer.refresh();
    else body.destroy(new Error('upload stalled: no data'));
  }, ms);
  return {
    writing(on) {
      writing = on;
      timer.refresh();
    },
    stop: () => clearTimeout(timer),
  };
}

/** Reads the body into the batches; 413 as soon as it holds more than `room` bytes. */
async function receive(body: Readable, spec: AppendSpec, batches: BatchedWriter): Promise<number> {
  let received = 0;
  // The upload is going away: the rest of this body has nowhere to go, so its connection is
  // dropped (as for a stalled one) and the bytes written are cut back (an AppError cuts).
  const interrupted = (): void => void body.destroy(new AppError('not_found', 'the upload was deleted'));
  if (spec.signal?.aborted) interrupted();
  spec.signal?.addEventListener('abort', interrupted, { once: true });
  const stall = stallGuard(body, spec.stallMs ?? STALL_MS);
  try {
    // destroyOnReturn false: leaving the loop early must not destroy the connection's socket.
    for await (const chunk of body.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
      stall.writing(true);
      received += chunk.length;
      if (received > spec.room) throw new AppError('too_large', `upload body is longer than the ${spec.room} bytes missing`);
      await batches.add(chunk);
      stall.writing(false);
    }
    return received;
  } finally {
    stall.stop();
    spec.signal?.removeEventListener('abort', interrupted);
  }
}

/**
 * After a failed body: an overlong one is cut back to the offset, and so is one whose writes
 * failed (a later batch may have landed past a gap); a body the client cut short keeps the bytes
 * that arrived, durably, so the upload resumes from them.
 */
async function keepOrCut(fh: UploadFile, batches: BatchedWriter, failure: { err: unknown; offset: number }): Promise<void> {
  const keep = !(failure.err instanceof AppError);
  if (keep) batches.flush();
  const written = await batches.settle().then(
    () => true,
    () => false,
  );
  if (keep && written) await fh.sync();
  else await fh.truncate(failure.offset);
}

/**
 * Reads and discards what is left of a request body, up to `limit` bytes and `timeoutMs` of
 * waiting, so a keep-alive connection can carry the next request after a refusal (§3.17 step 9).
 * True when the body ended within the limits; false means the connection must be closed.
 */
export async function drain(body: Readable, limit: number, timeoutMs = 30_000): Promise<boolean> {
  if (body.readableEnded) return true;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([discard(body, limit), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function discard(body: Readable, limit: number): Promise<boolean> {
  let seen = 0;
  try {
    for await (const chunk of body.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
      seen += chunk.length;
      if (seen > limit) return false;
    }
    return true;
  } catch {
    return false;
  }
}
