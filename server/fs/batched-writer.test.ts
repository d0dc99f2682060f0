import { randomBytes } from 'node:crypto';
import { mkdtemp, open, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { BatchedWriter, DEFAULT_BATCHES, writeBody, type PositionalFile } from './batched-writer';

type Call = { position: number; bytes: number; buffers: number };

/** A disk in memory: stores what writev gets at its position, records every call, counts writes per byte. */
class FakeDisk implements PositionalFile {
  data = Buffer.alloc(0);
  writesPerByte: number[] = [];
  calls: Call[] = [];
  pending = 0; // gated writes not yet released
  maxPending = 0;
  #releases: (() => void)[] = [];

  /** `limit`: at most this many bytes taken per call; `gated`: calls resolve only on release(). */
  constructor(private readonly opts: { limit?: number; gated?: boolean } = {}) {}

  writev(buffers: Buffer[], position: number): Promise<{ bytesWritten: number }> {
    const all = Buffer.concat(buffers);
    const taken = all.subarray(0, Math.min(all.length, this.opts.limit ?? Infinity));
    this.calls.push({ position, bytes: all.length, buffers: buffers.length });
    const end = position + taken.length;
    if (end > this.data.length) this.data = Buffer.concat([this.data, Buffer.alloc(end - this.data.length)]);
    taken.copy(this.data, position);
    for (let i = position; i < position + taken.length; i++) this.writesPerByte[i] = (this.writesPerByte[i] ?? 0) + 1;
    if (this.opts.gated !== true) return Promise.resolve({ bytesWritten: taken.length });
    this.pending++;
    this.maxPending = Math.max(this.maxPending, this.pending);
    return new Promise((resolve) => {
      this.#releases.push(() => {
        this.pending--;
        resolve({ bytesWritten: taken.length });
      });
    });
  }

  /** Completes the oldest write still pending. */
  release(): void {
    this.#releases.shift()!();
  }
}

/** A disk whose every write fails with `reason` (possibly not an Error, on purpose). */
// eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
const failingDisk = (reason: unknown): PositionalFile => ({ writev: () => Promise.reject(reason) });

const enospc = (): Error => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });

/** Deterministic chunks of odd sizes (1..maxSize) with distinct contents. */
function oddChunks(count: number, maxSize: number): Buffer[] {
  let seed = 12345;
  const next = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
  return Array.from({ length: count }, () => {
    const b = Buffer.alloc((next() % maxSize) + 1);
    for (let i = 0; i < b.length; i++) b[i] = next() % 256;
    return b;
  });
}

/** Lets pending promise callbacks and I/O callbacks run. */
const ticks = (): Promise<void> => sleep(5);

/** Watches a promise: `settled` turns true once it resolves or rejects. */
function watch<T>(p: Promise<T>): { p: Promise<T>; settled: boolean } {
  const w = { p, settled: false };
  p.then(() => (w.settled = true), () => (w.settled = true));
  return w;
}

async function addAll(writer: BatchedWriter, chunks: Buffer[]): Promise<void> {
  for (const c of chunks) await writer.add(c);
  writer.flush();
  await writer.settle();
}

describe('BatchedWriter placement', () => {
  it('writes many odd-sized chunks at their positions from a non-zero start, each byte once', async () => {
    const [disk, chunks, start] = [new FakeDisk(), oddChunks(200, 23), 1000];
    await addAll(new BatchedWriter(disk, start, { batchBytes: 10, depth: 2 }), chunks);
    const whole = Buffer.concat(chunks);
    expect(disk.data.subarray(start).equals(whole)).toBe(true);
    // Nothing before the start is touched; every byte after it is written exactly once.
    expect(disk.writesPerByte.slice(0, start).some((n) => n !== undefined)).toBe(false);
    expect(disk.writesPerByte.slice(start).every((n) => n === 1)).toBe(true);
    // Batches follow one another with no gap and no overlap.
    let at = start;
    for (const call of disk.calls) {
      expect(call.position).toBe(at);
      at += call.bytes;
    }
    expect(at).toBe(start + whole.length);
  });

  it('retries the remainder of short writes until everything lands in order', async () => {
    const disk = new FakeDisk({ limit: 7 });
    const chunks = oddChunks(120, 19);
    await addAll(new BatchedWriter(disk, 3, { batchBytes: 25, depth: 1 }), chunks);
    expect(disk.data.subarray(3).equals(Buffer.concat(chunks))).toBe(true);
    expect(disk.writesPerByte.slice(3).every((n) => n === 1)).toBe(true);
    // depth 1: one batch at a time, so after a short write comes exactly its remainder.
    disk.calls.forEach((c, i) => {
      const prev = disk.calls[i - 1];
      if (prev === undefined) expect(c.position).toBe(3);
      else if (prev.bytes > 7) expect(c).toMatchObject({ position: prev.position + 7, bytes: prev.bytes - 7 });
      else expect(c.position).toBe(prev.position + prev.bytes);
    });
  });

  it('retries a short write that stops inside a buffer of the vector', async () => {
    const disk = new FakeDisk({ limit: 4 });
    const writer = new BatchedWriter(disk, 0, { batchBytes: 100, depth: 1 });
    await addAll(writer, [Buffer.from('abc'), Buffer.from('defgh'), Buffer.from('ij')]);
    expect(disk.data.toString()).toBe('abcdefghij');
    expect(disk.calls).toEqual([
      { position: 0, bytes: 10, buffers: 3 },
      { position: 4, bytes: 6, buffers: 2 },
      { position: 8, bytes: 2, buffers: 1 },
    ]);
  });
});

describe('BatchedWriter batching', () => {
  it('writes only full batches as one vector each, and flush() writes the partial rest', async () => {
    const disk = new FakeDisk();
    const writer = new BatchedWriter(disk, 0, { batchBytes: 16, depth: 2 });
    const chunks = Array.from({ length: 10 }, (_, i) => Buffer.alloc(5, 65 + i));
    for (const c of chunks.slice(0, 3)) await writer.add(c);
    await ticks();
    expect(disk.calls).toEqual([]); // 15 bytes: not yet a batch
    await writer.add(chunks[3]!);
    expect(disk.calls).toEqual([{ position: 0, bytes: 20, buffers: 4 }]);
    for (const c of chunks.slice(4)) await writer.add(c);
    await ticks();
    expect(disk.calls.map((c) => c.bytes)).toEqual([20, 20]); // the last 10 bytes wait
    writer.flush();
    expect(disk.calls.at(-1)).toEqual({ position: 40, bytes: 10, buffers: 2 });
    writer.flush(); // nothing gathered: no call
    await writer.settle();
    expect(disk.calls.length).toBe(3);
    for (const c of disk.calls.slice(0, -1)) expect(c.bytes).toBeGreaterThanOrEqual(16);
    expect(disk.data.equals(Buffer.concat(chunks))).toBe(true);
  });
});

describe('BatchedWriter depth', () => {
  it('keeps at most `depth` writes pending; add waits for the oldest', async () => {
    const disk = new FakeDisk({ gated: true });
    const writer = new BatchedWriter(disk, 0, { batchBytes: 4, depth: 2 });
    await writer.add(Buffer.from('aaaa'));
    await writer.add(Buffer.from('bbbb'));
    expect(disk.pending).toBe(2);
    const third = watch(writer.add(Buffer.from('cccc')));
    await ticks();
    expect(third.settled).toBe(false); // waits for 'aaaa'
    expect(disk.calls.length).toBe(2);
    disk.release(); // 'aaaa' done
    await third.p;
    expect(disk.calls.length).toBe(3);
    expect(disk.pending).toBe(2);
    const fourth = watch(writer.add(Buffer.from('dddd')));
    await ticks();
    expect(fourth.settled).toBe(false);
    disk.release(); // 'bbbb' done
    await fourth.p;
    const settled = watch(writer.settle());
    disk.release();
    await ticks();
    expect(settled.settled).toBe(false); // 'dddd' still pending
    disk.release();
    await settled.p;
    expect(disk.maxPending).toBe(2);
    expect(disk.data.toString()).toBe('aaaabbbbccccdddd');
  });
});

describe('BatchedWriter failure', () => {
  it('settle() and later adds reject with the same ENOSPC error, with no unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): number => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const err = enospc();
      const writer = new BatchedWriter(failingDisk(err), 0, { batchBytes: 4, depth: 2 });
      await writer.add(Buffer.from('aaaa'));
      await ticks(); // the failure is not observed yet: it must not surface as unhandled
      await expect(writer.settle()).rejects.toBe(err); // the same object, code 'ENOSPC' and all
      await expect(writer.add(Buffer.from('b'))).rejects.toBe(err);
      await expect(writer.settle()).rejects.toBe(err);
      await ticks();
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('an add waiting for a failed oldest write rejects with its error', async () => {
    const err = enospc();
    const writer = new BatchedWriter(failingDisk(err), 0, { batchBytes: 2, depth: 1 });
    await writer.add(Buffer.from('aa')); // started; fails asynchronously
    await expect(writer.add(Buffer.from('bb'))).rejects.toBe(err);
    await expect(writer.settle()).rejects.toBe(err);
  });

  it('keeps the first failure when several batches fail', async () => {
    const errors = [enospc(), enospc()];
    const disk: PositionalFile = { writev: () => Promise.reject(errors[calls++]!) };
    let calls = 0;
    const writer = new BatchedWriter(disk, 0, { batchBytes: 2, depth: 2 });
    const adds = [writer.add(Buffer.from('aa')), writer.add(Buffer.from('bb'))]; // both start at once
    await Promise.all(adds);
    expect(calls).toBe(2);
    await expect(writer.settle()).rejects.toBe(errors[0]);
    await expect(writer.add(Buffer.from('c'))).rejects.toBe(errors[0]);
  });

  it('turns a non-Error rejection into an Error', async () => {
    const writer = new BatchedWriter(failingDisk('disk on fire'), 0, { batchBytes: 4, depth: 2 });
    await writer.add(Buffer.from('aaaa'));
    const failure: unknown = await writer.settle().catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toBe('disk on fire');
    await expect(writer.add(Buffer.from('x'))).rejects.toBe(failure);
  });
});

describe('writeBody', () => {
  it('writes a body of Buffers and returns its byte count', async () => {
    const [disk, chunks] = [new FakeDisk(), oddChunks(50, 31)];
    const n = await writeBody(Readable.from(chunks), new BatchedWriter(disk, 0, { batchBytes: 64, depth: 2 }));
    expect(n).toBe(Buffer.concat(chunks).length);
    expect(disk.data.equals(Buffer.concat(chunks))).toBe(true);
  });

  it('writes a body of strings as UTF-8 and counts bytes, not characters', async () => {
    const disk = new FakeDisk();
    const parts = ['héllo ', 'wörld ', '日本語 ', 'end'];
    const n = await writeBody(Readable.from(parts), new BatchedWriter(disk, 5, { batchBytes: 8, depth: 2 }));
    const text = parts.join('');
    expect(n).toBe(Buffer.byteLength(text));
    expect(n).toBeGreaterThan(text.length);
    expect(disk.data.subarray(5).toString('utf8')).toBe(text);
  });

  it('rejects with a body error; flush and settle then write the bytes that arrived', async () => {
    const disk = new FakeDisk();
    const reset = new Error('connection reset');
    const body = Readable.from(
      (function* () {
        yield Buffer.from('0123456789');
        yield Buffer.from('abc');
        throw reset;
      })(),
    );
    const writer = new BatchedWriter(disk, 0, { batchBytes: 8, depth: 2 });
    await expect(writeBody(body, writer)).rejects.toBe(reset);
    writer.flush();
    await writer.settle();
    expect(disk.data.toString()).toBe('0123456789abc');
  });

  it('rejects with a failed write and leaves the body undestroyed', async () => {
    const err = enospc();
    const body = Readable.from(
      (function* () {
        for (let i = 0; i < 100; i++) yield Buffer.alloc(4, i);
      })(),
    );
    const writer = new BatchedWriter(failingDisk(err), 0, { batchBytes: 4, depth: 2 });
    await expect(writeBody(body, writer)).rejects.toBe(err);
    expect(body.destroyed).toBe(false);
    await expect(writer.settle()).rejects.toBe(err);
    body.destroy();
  });
});

describe('BatchedWriter on a real file', () => {
  it('writes ~10 MiB in 64 KiB chunks through DEFAULT_BATCHES into an identical file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'filemgr-batched-'));
    try {
      const path = join(dir, 'out.bin');
      const source = randomBytes(10 * 1024 * 1024 + 12_345);
      const chunks = Array.from({ length: Math.ceil(source.length / 65536) }, (_, i) => source.subarray(i * 65536, (i + 1) * 65536));
      const fh = await open(path, 'wx');
      const n = await writeBody(Readable.from(chunks), new BatchedWriter(fh, 0, DEFAULT_BATCHES)).finally(() => fh.close());
      expect(n).toBe(source.length);
      expect((await readFile(path)).equals(source)).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
