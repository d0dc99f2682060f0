import { safeEntryName } from './formats';

/** One file or directory to put into an archive; `name` is relative and '/'-separated. */
export interface ArchiveEntry {
  name: string;
  isDir: boolean;
  /** The size the file had when it was listed; its body is cut or padded to it (entry-body.ts). */
  size: number;
  mode: number;
  mtime: Date;
  /**
   * The whole content, when the source has already read it (small files): the writers then
   * format the entry without any stream, and its size is this buffer's length.
   */
  data?: Buffer;
  /** Opens the file's content; called only for files without `data`, once, right before it is written. */
  open(): NodeJS.ReadableStream;
}

/**
 * What the writers consume: entries one by one, or in batches. A source that reads thousands of
 * small files hands them over in batches, so the per-file cost is formatting, not promise hops.
 */
export type EntryItem = ArchiveEntry | readonly ArchiveEntry[];

/** Reports an entry that was left out or whose content could not be read in full. */
export type SkipReporter = (name: string, err: Error) => void;

/** What every format writer needs besides the entries. */
export interface WriterContext {
  /** Aborted when the consumer went away: stop reading files. */
  signal: AbortSignal;
  onSkip: SkipReporter;
  /** The archive worker's code, for the writers that compress off the event loop. */
  workerSource: () => Promise<string>;
}

/** An entry whose name passed safeEntryName, with that cleaned name. */
export interface AcceptedEntry {
  entry: ArchiveEntry;
  name: string;
}

function accepted(entries: readonly ArchiveEntry[], ctx: WriterContext): AcceptedEntry[] {
  const out: AcceptedEntry[] = [];
  for (const entry of entries) {
    const name = safeEntryName(entry.name);
    if (name === undefined) ctx.onSkip(entry.name, new Error('unsafe entry name (absolute or with a ".." segment)'));
    else out.push({ entry, name });
  }
  return out;
}

/**
 * The entries worth writing, in the batches they came in: those with a safe name, until the
 * archive is aborted. An unsafe name is reported and left out, never rewritten into something
 * that could escape on extraction.
 */
export async function* acceptedBatches(items: AsyncIterable<EntryItem>, ctx: WriterContext): AsyncGenerator<AcceptedEntry[]> {
  for await (const item of items) {
    if (ctx.signal.aborted) return;
    const batch = accepted(isBatch(item) ? item : [item], ctx);
    if (batch.length > 0) yield batch;
  }
}

function isBatch(item: EntryItem): item is readonly ArchiveEntry[] {
  return Array.isArray(item);
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
