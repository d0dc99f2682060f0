import { once } from 'node:events';
import type { Readable, Writable } from 'node:stream';
import { safeEntryName } from './formats';

/** One file or directory to put into an archive; `name` is relative and '/'-separated. */
export interface ArchiveEntry {
  name: string;
  isDir: boolean;
  size: number;
  mode: number;
  mtime: Date;
  /** Opens the file's content; called only for files, once, right before it is written. */
  open(): NodeJS.ReadableStream | Readable;
}

/** Reports an entry that was left out or whose content could not be read in full. */
export type SkipReporter = (name: string, err: Error) => void;

/** What every format writer needs besides the entries. */
export interface WriterContext {
  /** Aborted when the consumer went away: stop reading files. */
  signal: AbortSignal;
  onSkip: SkipReporter;
}

/** An entry whose name passed safeEntryName, with that cleaned name. */
export interface AcceptedEntry {
  entry: ArchiveEntry;
  name: string;
}

/**
 * The entries worth writing: those with a safe name, until the archive is aborted. An unsafe
 * name is reported and left out, never rewritten into something that could escape on extraction.
 */
export async function* acceptedEntries(
  entries: AsyncIterable<ArchiveEntry>,
  ctx: WriterContext,
): AsyncGenerator<AcceptedEntry> {
  for await (const entry of entries) {
    if (ctx.signal.aborted) return;
    const name = safeEntryName(entry.name);
    if (name === undefined) {
      ctx.onSkip(entry.name, new Error('unsafe entry name (absolute or with a ".." segment)'));
      continue;
    }
    yield { entry, name };
  }
}

/** Permission bits of an entry, with a sane default when the source reported none. */
export function permissions(entry: ArchiveEntry): number {
  const bits = entry.mode & 0o7777;
  if (bits !== 0) return bits;
  return entry.isDir ? 0o755 : 0o644;
}

/** Normalises whatever an entry's open() threw or emitted into an Error. */
export function toError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}

/**
 * Waits until `out` can take more data. Writers call it before each entry so that headers of
 * many small files or empty folders cannot pile up in memory while the client reads slowly.
 */
export async function waitForRoom(out: Writable, signal: AbortSignal): Promise<void> {
  if (!out.writableNeedDrain || signal.aborted) return;
  try {
    await once(out, 'drain', { signal });
  } catch (err) {
    if (!signal.aborted) throw toError(err);
  }
}
