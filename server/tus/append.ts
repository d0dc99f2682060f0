import { open, type FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { AppError } from '../errors';
import { fsError, translated } from '../fs/fs-error';

/**
 * The byte path of a PATCH: the request body appended to an upload's temporary file. Writes are
 * gathered into large batches, and one batch is written while the next arrives, so a chunk of a
 * large upload costs few system calls and the network and the disk work at the same time.
 */

/** Bytes gathered before a write (at most two batches are held per request). */
const BATCH_BYTES = 4 * 1024 * 1024;

/** Where a PATCH writes and how much it may write. */
export interface AppendSpec {
  /** The upload's offset: the temporary file's size, checked by the caller. */
  offset: number;
  /** Bytes still missing: declared length minus offset. */
  room: number;
}

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

async function writeAll(fh: FileHandle, buffers: Buffer[], position: number): Promise<void> {
  let rest = buffers;
  let at = position;
  while (rest.length > 0) {
    const { bytesWritten } = await fh.writev(rest, at);
    at += bytesWritten;
    rest = dropBytes(rest, bytesWritten);
  }
}

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

class Batches {
  private parts: Buffer[] = [];
  private bytes = 0;
  private pending: Promise<void> = Promise.resolve();

  constructor(
    private readonly fh: FileHandle,
    private position: number,
  ) {}

  /** Queues a chunk; waits for the previous write once a batch is full. */
  async add(chunk: Buffer): Promise<void> {
    this.parts.push(chunk);
    this.bytes += chunk.length;
    if (this.bytes < BATCH_BYTES) return;
    await this.pending;
    this.flush();
  }

  /** Starts writing what is gathered. */
  flush(): void {
    if (this.bytes === 0) return;
    const parts = this.parts;
    const at = this.position;
    this.position += this.bytes;
    this.parts = [];
    this.bytes = 0;
    this.pending = this.pending.then(() => writeAll(this.fh, parts, at));
  }

  /** Waits until everything queued is written. */
  settle(): Promise<void> {
    return this.pending;
  }
}

/**
 * Appends a PATCH body to `temp` at `spec.offset` and fsyncs it (api.md §3.17 step 7). A body longer
 * than `spec.room` answers 413 and the file is cut back to the offset; a body cut short by the
 * client keeps the bytes that arrived, so the upload resumes from them. The body stream is never
 * destroyed, so the connection can still carry a response. Returns the bytes appended.
 */
export async function appendBody(temp: string, spec: AppendSpec, body: Readable): Promise<number> {
  const fh = await translated(() => open(temp, 'r+'));
  try {
    const batches = new Batches(fh, spec.offset);
    const received = await receive(body, spec.room, batches).catch(async (err: unknown) => {
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
    await fh.close();
  }
}

/** Reads the body into the batches; 413 as soon as it holds more than `room` bytes. */
async function receive(body: Readable, room: number, batches: Batches): Promise<number> {
  let received = 0;
  // destroyOnReturn false: leaving the loop early must not destroy the connection's socket.
  for await (const chunk of body.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
    received += chunk.length;
    if (received > room) throw new AppError('too_large', `upload body is longer than the ${room} bytes missing`);
    await batches.add(chunk);
  }
  return received;
}

/** After a failed body: an overlong one is cut back to the offset, a short one keeps its bytes. */
async function keepOrCut(fh: FileHandle, batches: Batches, failure: { err: unknown; offset: number }): Promise<void> {
  if (failure.err instanceof AppError) {
    await batches.settle().catch(() => undefined);
    await fh.truncate(failure.offset);
    return;
  }
  batches.flush();
  await batches.settle();
  await fh.sync();
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
