import type { Duplex, Readable } from 'node:stream';
import { compressionStage } from './compression';
import type { EntryItem, SkipReporter, WriterContext } from './entry';
import type { ArchiveFormat } from './formats';
import { tarStream } from './tar-writer';
import { defaultArchiveWorkerSource } from './worker-source';
import { zipStream } from './zip-writer';

export type { ArchiveEntry, EntryItem, SkipReporter } from './entry';

/** Options of createArchiveStream. */
export interface ArchiveOptions {
  /** Aborting stops reading files, terminates the compression worker and destroys the stream. */
  signal?: AbortSignal;
  /** The compression worker's code; defaults to bundling it from source (see worker-source.ts). */
  workerSource?: () => Promise<string>;
  /** Called for an entry left out (unsafe name, cannot be opened) or padded (read failed mid-file). */
  onSkip?: SkipReporter;
}

function sourceArchive(format: ArchiveFormat, entries: AsyncIterable<EntryItem>, ctx: WriterContext): Readable {
  return format === 'zip' ? zipStream(entries, ctx) : tarStream(entries, ctx);
}

/**
 * Streams the entries as an archive in `format`. Nothing is built in memory or in a temporary
 * file: one file is open at a time, the client's pace drives the reading, and CPU-heavy
 * compressors run in a worker thread. Destroying the returned stream (or aborting `signal`)
 * stops everything; an error mid-way destroys the stream with that error, never ends it as if
 * the archive were complete.
 */
export function createArchiveStream(
  format: ArchiveFormat,
  entries: AsyncIterable<EntryItem>,
  options: ArchiveOptions = {},
): Readable {
  const controller = new AbortController();
  // Aborted before the writers start, so not even the first file is opened.
  if (options.signal?.aborted) controller.abort();
  const workerSource = options.workerSource ?? defaultArchiveWorkerSource();
  const ctx: WriterContext = { signal: controller.signal, onSkip: options.onSkip ?? (() => undefined), workerSource };
  const source = sourceArchive(format, entries, ctx);
  const stage = compressionStage(format, { workerSource });
  if (stage) connect(source, stage);
  const out = stage ?? source;
  // Whatever ends the output (done, failed, destroyed by the consumer) stops the writers.
  out.once('close', () => controller.abort());
  if (options.signal) stopOnAbort(options.signal, { out, controller });
  return out;
}

/**
 * Pipes the tar into its compressor. Not stream.pipeline: it destroys every stream with the
 * error of any one, and an 'error' on the inner stream with no listener left would crash the
 * process when a client disconnects. Here an error of the tar reaches the consumer through the
 * compressor, and a compressor that is done or destroyed simply stops the tar.
 */
function connect(source: Readable, stage: Duplex): void {
  source.on('error', (err) => stage.destroy(err));
  stage.once('close', () => source.destroy());
  source.pipe(stage);
}

function stopOnAbort(signal: AbortSignal, target: { out: Readable; controller: AbortController }): void {
  const abort = (): void => {
    target.controller.abort();
    target.out.destroy(signal.reason instanceof Error ? signal.reason : new Error('archive aborted'));
  };
  if (signal.aborted) {
    abort();
    return;
  }
  signal.addEventListener('abort', abort, { once: true });
  target.out.once('close', () => signal.removeEventListener('abort', abort));
}
