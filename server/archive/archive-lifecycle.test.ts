import { once } from 'node:events';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { createArchiveStream, type ArchiveEntry } from './archive';
import type { ArchiveFormat } from './formats';
import { ARCHIVE_WORKER_ASSET, archiveWorkerSource } from './worker-source';
import { runningArchiveWorkers } from './worker-spawn';

const GiB = 1024 ** 3;

/** A file of `size` pseudo-random bytes that is produced on demand and remembers whether it was closed. */
function generatedFile(name: string, size: number): { entry: ArchiveEntry; opened: Readable[] } {
  const opened: Readable[] = [];
  const block = Buffer.alloc(64 * 1024);
  const entry: ArchiveEntry = {
    name,
    isDir: false,
    size,
    mode: 0o644,
    mtime: new Date(),
    open() {
      let sent = 0;
      const stream = new Readable({
        read() {
          if (sent >= size) return void this.push(null);
          // Varying content, so compressors do real work.
          for (let i = 0; i < block.length; i += 4) block.writeUInt32LE((sent + i) * 2654435761 >>> 0, i);
          sent += block.length;
          this.push(Buffer.from(block));
        },
      });
      opened.push(stream);
      return stream;
    },
  };
  return { entry, opened };
}

/** The entries one at a time, each after an await, as a directory walk delivers them. */
async function* listOf(...entries: ArchiveEntry[]): AsyncGenerator<ArchiveEntry> {
  for (const entry of entries) {
    await Promise.resolve();
    yield entry;
  }
}

async function eventually(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const formats: ArchiveFormat[] = ['zip', 'tar', 'targz', 'tarbz2', 'tarxz', 'tarlz4', 'tarsz', 'tarbr', 'tarzst'];

describe('stopping an archive', () => {
  it.each(formats)('stops reading and leaves no worker when the consumer destroys a %s stream mid-way', async (format) => {
    const { entry, opened } = generatedFile('big.bin', GiB);
    const stream = createArchiveStream(format, listOf(entry));
    await once(stream, 'data');
    stream.destroy();
    await eventually(() => opened.length === 1 && opened[0]!.destroyed && runningArchiveWorkers() === 0);
    expect(opened[0]!.destroyed).toBe(true);
    expect(runningArchiveWorkers()).toBe(0);
  });

  it.each(['tarbz2', 'tarxz', 'zip'] as const)('fails the %s stream and cleans up when the signal aborts', async (format) => {
    const { entry, opened } = generatedFile('big.bin', GiB);
    const controller = new AbortController();
    const stream = createArchiveStream(format, listOf(entry), { signal: controller.signal });
    const sink = new Writable({
      write(_chunk, _encoding, callback) {
        controller.abort();
        callback();
      },
    });
    await expect(pipeline(stream, sink)).rejects.toThrow();
    await eventually(() => opened[0]?.destroyed === true && runningArchiveWorkers() === 0);
    expect(stream.destroyed).toBe(true);
  });

  it('does not read any file when the signal is already aborted', async () => {
    const { entry, opened } = generatedFile('big.bin', GiB);
    const stream = createArchiveStream('tarxz', listOf(entry), { signal: AbortSignal.abort() });
    await expect(pipeline(stream, new Writable({ write: (_c, _e, cb) => cb() }))).rejects.toThrow();
    await eventually(() => runningArchiveWorkers() === 0);
    expect(opened).toHaveLength(0);
  });

  it('stops reading entries once the consumer is gone', async () => {
    let pulled = 0;
    async function* many(): AsyncGenerator<ArchiveEntry> {
      for (let i = 0; i < 100_000; i++) {
        await Promise.resolve();
        pulled++;
        yield generatedFile(`f${i}.bin`, 64 * 1024).entry;
      }
    }
    const stream = createArchiveStream('tar', many());
    await once(stream, 'data');
    stream.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const afterStop = pulled;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(pulled).toBe(afterStop);
    expect(pulled).toBeLessThan(100);
  });
});

describe('failing sources', () => {
  it.each(['zip', 'tar', 'tarxz'] as const)('fails the %s stream with the error of the entry list', async (format) => {
    const { entry, opened } = generatedFile('a.bin', 1024 * 1024);
    async function* broken(): AsyncGenerator<ArchiveEntry> {
      yield entry;
      await Promise.resolve();
      throw new Error('directory vanished');
    }
    const stream = createArchiveStream(format, broken());
    await expect(pipeline(stream, new Writable({ write: (_c, _e, cb) => cb() }))).rejects.toThrow('directory vanished');
    await eventually(() => runningArchiveWorkers() === 0);
    expect(opened[0]?.destroyed).toBe(true);
  });
});

describe('the compression worker', () => {
  it('fails the stream, rather than hanging, when the worker code breaks', async () => {
    const { entry } = generatedFile('a.bin', 1024 * 1024);
    const stream = createArchiveStream('tarbz2', listOf(entry), { workerSource: () => Promise.resolve('throw new Error("broken worker")') });
    await expect(pipeline(stream, new Writable({ write: (_c, _e, cb) => cb() }))).rejects.toThrow(/broken worker/);
    await eventually(() => runningArchiveWorkers() === 0);
  });

  it('fails the stream when the worker code cannot be loaded', async () => {
    const { entry } = generatedFile('a.bin', 1024);
    const stream = createArchiveStream('tarsz', listOf(entry), { workerSource: () => Promise.reject(new Error('no worker asset')) });
    await expect(pipeline(stream, new Writable({ write: (_c, _e, cb) => cb() }))).rejects.toThrow(/no worker asset/);
    expect(runningArchiveWorkers()).toBe(0);
  });

  it('uses the embedded asset when there is one', async () => {
    const load = archiveWorkerSource({ read: (key) => (key === ARCHIVE_WORKER_ASSET ? Buffer.from('// embedded worker') : undefined) });
    await expect(load()).resolves.toBe('// embedded worker');
  });

  it('bundles the worker from source once when no asset exists', async () => {
    const load = archiveWorkerSource({ read: () => undefined });
    const first = await load();
    expect(first).toContain('compressBZ2');
    expect(await load()).toBe(first);
  });
});
