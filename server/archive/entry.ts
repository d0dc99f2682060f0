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
  /**
   * The entry already in the archive's format, made where the file was read (see
   * worker-protocol.ts, Preparation): its size is then the content's length as read.
   */
  prepared?: PreparedEntry;
  /** Opens the file's content; called only for files without `data`, once, right before it is written. */
  open(): NodeJS.ReadableStream;
}

/**
 * A small file prepared by the reader: its whole tar record (header, content, padding), or its
 * zip body (deflated when that made it smaller) with the content's CRC-32.
 */
export type PreparedEntry = { format: 'tar'; record: Buffer } | { format: 'zip'; body: Buffer; crc: number; deflated: boolean };

/** Thrown by a writer given an entry prepared for another format: the walk and the writer disagree. */
export function foreignPreparation(name: string, format: string): Error {
  return new Error(`entry ${name} was prepared for ${format}, not for this archive`);
}

/** Reported for an entry whose name could escape the target folder on extraction. */
export function unsafeName(): Error {
  return new Error('unsafe entry name (absolute or with a ".." segment)');
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
    if (name === undefined) ctx.onSkip(entry.name, unsafeName());
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
export function permissions(entry: Pick<ArchiveEntry, 'mode' | 'isDir'>): number {
  const bits = entry.mode & 0o7777;
  if (bits !== 0) return bits;
  return entry.isDir ? 0o755 : 0o644;
}

/** Normalises whatever an entry's open() threw or emitted into an Error. */
export function toError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}
