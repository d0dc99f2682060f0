import { pipeline, type Readable } from 'node:stream';
import { compressionStage } from './compression';
import type { ArchiveEntry, SkipReporter, WriterContext } from './entry';
import type { ArchiveFormat } from './formats';
import { tarStream } from './tar-writer';
import { archiveWorkerSource } from './worker-source';
import { zipStream } from './zip-writer';

export type { ArchiveEntry, SkipReporter } from './entry';

/** Options of createArchiveStream. */
export interface ArchiveOptions {
  /** Aborting stops reading files, terminates the compression worker and destroys the stream. */
  signal?: AbortSignal;
  /** The compression worker's code; defaults to bundling it from source (see worker-source.ts). */
  workerSource?: () => Promise<string>;
  /** Called for an entry left out (unsafe name, cannot be opened) or padded (read failed mid-file). */
  onSkip?: SkipReporter;
}

let defaultWorkerSource: (() => Promise<string>) | undefined;

function sourceArchive(format: ArchiveFormat, entries: AsyncIterable<ArchiveEntry>, ctx: WriterContext): Readable {
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
  entries: AsyncIterable<ArchiveEntry>,
  options: ArchiveOptions = {},
): Readable {
  const controller = new AbortController();
  const ctx: WriterContext = { signal: controller.signal, onSkip: options.onSkip ?? (() => undefined) };
  const source = sourceArchive(format, entries, ctx);
  const workerSource = options.workerSource ?? (defaultWorkerSource ??= archiveWorkerSource());
  const stage = compressionStage(format, { workerSource });
  const out = stage ?? source;
  if (stage) {
    pipeline(source, stage, () => {
      // Errors reach the consumer through `stage`, which pipeline destroys with them.
    });
  }
  const external = options.signal;
  const onExternalAbort = (): void => {
    out.destroy(external?.reason instanceof Error ? external.reason : new Error('archive aborted'));
  };
  // Whatever ends the output (done, failed, destroyed by the consumer) stops the writers.
  out.once('close', () => {
    controller.abort();
    external?.removeEventListener('abort', onExternalAbort);
  });
  if (external?.aborted) onExternalAbort();
  else external?.addEventListener('abort', onExternalAbort, { once: true });
  return out;
}
