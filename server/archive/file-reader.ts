import { BatchWorker } from './batch-worker';
import { readFiles } from './read-files';
import { WIRE_FIELDS, WIRE_STATUSES, type WireReply } from './read-reply';
import type { FileStat, FileToRead, Preparation, ReadReply, ReadRequest, ZipBody } from './worker-protocol';

// A batch of fewer files is read on the calling thread: an archive of a few files never waits
// for a worker to start.
const INLINE_FILES = 16;

/** What became of a file given to the reader. */
export type FileRead =
  | { kind: 'data'; data: Buffer; stat: FileStat; zip?: ZipBody }
  | { kind: 'large'; stat: FileStat }
  | { kind: 'failed'; error: Error }
  | { kind: 'skip' };

function resultsOf(reply: ReadReply): FileRead[] {
  let offset = 0;
  return reply.outcomes.map((outcome): FileRead => {
    switch (outcome.status) {
      case 'data': {
        const data = Buffer.from(reply.bytes.buffer, reply.bytes.byteOffset + offset, outcome.length);
        offset += outcome.length;
        const stat = { size: outcome.size, mode: outcome.mode, mtimeMs: outcome.mtimeMs };
        return outcome.zip ? { kind: 'data', data, stat, zip: outcome.zip } : { kind: 'data', data, stat };
      }
      case 'large':
        return { kind: 'large', stat: outcome };
      case 'failed':
        return { kind: 'failed', error: new Error(outcome.error) };
      case 'skip':
        return { kind: 'skip' };
    }
  });
}

/**
 * The results of a worker's reply, read straight off its table of numbers: every file of a big
 * archive passes here, and intermediate objects per file were a good part of its garbage.
 */
export function readsOfWire(wire: WireReply): FileRead[] {
  const t = wire.table;
  const reads: FileRead[] = [];
  let offset = 0;
  let error = 0;
  for (let at = 0; at < t.length; at += WIRE_FIELDS) {
    const status = WIRE_STATUSES[t[at] ?? 0] ?? 'skip';
    if (status === 'failed') reads.push({ kind: 'failed', error: new Error(wire.errors[error++] ?? 'read failed') });
    else if (status === 'skip') reads.push({ kind: 'skip' });
    else {
      const stat = { size: t[at + 2] ?? 0, mode: t[at + 3] ?? 0, mtimeMs: t[at + 4] ?? 0 };
      if (status === 'large') reads.push({ kind: 'large', stat });
      else {
        const length = t[at + 1] ?? 0;
        const data = Buffer.from(wire.bytes.buffer, wire.bytes.byteOffset + offset, length);
        offset += length;
        const zip = t[at + 6] ?? -1;
        reads.push(zip < 0 ? { kind: 'data', data, stat } : { kind: 'data', data, stat, zip: { crc: t[at + 5] ?? 0, deflated: zip === 1 } });
      }
    }
  }
  return reads;
}

/**
 * Opens and reads batches of files for one archive, in a worker thread when given the worker's
 * code: for thousands of small files the open/fstat/read/close calls are most of the work, and
 * there they run beside the main thread walking and formatting. Without it (formats whose
 * compressor is the bottleneck, where a reader would only take its CPU time on a small box)
 * every batch is read on the calling thread. Answers come in request order.
 */
export class SmallFileReader {
  #worker: BatchWorker<ReadRequest, WireReply> | undefined;

  /** `prepare`: what each small file's content is turned into where it is read (default: nothing). */
  constructor(
    source: (() => Promise<string>) | undefined,
    readonly prepare: Preparation = 'raw',
  ) {
    if (source) this.#worker = new BatchWorker(source, { format: 'read' }, { reuse: true });
  }

  async read(files: FileToRead[]): Promise<FileRead[]> {
    const worker = files.length < INLINE_FILES ? undefined : this.#worker;
    if (worker) return readsOfWire(await worker.request({ kind: 'read', files, prepare: this.prepare }, []));
    return resultsOf(readFiles(files, this.prepare));
  }

  close(): void {
    this.#worker?.close();
  }
}
