import type { ArchiveEntry } from '../../archive/archive';
import { unsafeName, type PreparedEntry } from '../../archive/entry';
import type { FileRead, SmallFileReader } from '../../archive/file-reader';
import { safeEntryName } from '../../archive/formats';
import type { FileStat, FileToRead, Preparation } from '../../archive/worker-protocol';
import { openLarge } from './large-file';

// Each batch's contents arrive as one buffer. A buffer still queued or being written when the
// young generation is collected is promoted, and then lives until a full collection: 256 entries
// (about 1 MiB here) piled up tens of MiB of such dead buffers during a big archive; 64 keep the
// peak RSS of a 20,000-file tar and zip about 60 MiB lower at the same speed.
const BATCH_ENTRIES = 64;
// Batches being read while the writer formats earlier ones: enough to keep the reader busy,
// few enough that memory stays at a few MiB.
const READS_AHEAD = 2;

/** A file of the walk, described by what the reader finds when it opens it. */
export interface FileMember {
  /** The entry's name in the archive. */
  name: string;
  /** The user path, for reports. */
  path: string;
  file: FileToRead;
}

type Slot = { entry: ArchiveEntry } | { member: FileMember };

type DataRead = Extract<FileRead, { kind: 'data' }>;

/**
 * A file's entry. Its Date and its opener are made only when a writer asks for them: a small
 * file's prepared tar record needs neither, and every object per file of a 20,000-file archive
 * was garbage to collect while the archive streamed.
 */
class FileEntry implements ArchiveEntry {
  readonly isDir = false;
  readonly name: string;
  readonly size: number;
  readonly mode: number;
  data?: Buffer;
  prepared?: PreparedEntry;
  readonly #mtimeMs: number;
  readonly #file: FileToRead;

  constructor(member: FileMember, stat: FileStat) {
    this.name = member.name;
    this.size = stat.size;
    this.mode = stat.mode;
    this.#mtimeMs = stat.mtimeMs;
    this.#file = member.file;
  }

  get mtime(): Date {
    return new Date(this.#mtimeMs);
  }

  open(): NodeJS.ReadableStream {
    return openLarge(this.#file);
  }
}

/** A read file's entry: its content as is, or prepared for the archive's format. */
function withContent(entry: FileEntry, read: DataRead, prepare: Preparation): FileEntry {
  if (prepare === 'tar') entry.prepared = { format: 'tar', record: read.data };
  else if (prepare === 'zip' && read.zip) entry.prepared = { format: 'zip', body: read.data, ...read.zip };
  else entry.data = read.data;
  return entry;
}

/**
 * Archive entries gathered into batches for the writer. The files of a batch are opened and
 * the small ones read together (by the reader, in a worker for plain tar) while the walk goes
 * on; a file that cannot be opened is reported and left out. Batches are handed over in order.
 */
export class EntryBatches {
  #slots: Slot[] = [];
  #queue: Promise<ArchiveEntry[]>[] = [];

  constructor(
    private readonly reader: SmallFileReader,
    private readonly onSkip: (path: string, err: Error) => void,
  ) {}

  /** An entry described already (a directory). */
  add(entry: ArchiveEntry): void {
    this.#slots.push({ entry });
  }

  /**
   * A file: opened and described, and read when small, before its batch is handed over. Its name
   * is checked here, as the writers check every name, since a prepared tar record carries it.
   */
  addFile(name: string, path: string, file: { path: string; follow: boolean }): void {
    const safe = safeEntryName(name);
    if (safe === undefined) this.onSkip(name, unsafeName());
    else this.#slots.push({ member: { name: safe, path, file: { path: file.path, follow: file.follow, name: safe } } });
  }

  get full(): boolean {
    return this.#slots.length >= BATCH_ENTRIES;
  }

  /** Starts reading the batch gathered so far and yields the batches that are due: all with `all`. */
  async *due(all: boolean): AsyncGenerator<ArchiveEntry[]> {
    this.#submit();
    while (this.#queue.length > (all ? 0 : READS_AHEAD)) yield await (this.#queue.shift() as Promise<ArchiveEntry[]>);
  }

  #submit(): void {
    const slots = this.#slots;
    if (slots.length === 0) return;
    this.#slots = [];
    const members = slots.flatMap((slot) => ('member' in slot ? [slot.member] : []));
    const ready = this.reader.read(members.map((member) => member.file)).then((results) => this.#entries(slots, results));
    // A walk that stops early leaves batches unawaited: their failure must not go unhandled.
    ready.catch(() => undefined);
    this.#queue.push(ready);
  }

  #entries(slots: Slot[], results: FileRead[]): ArchiveEntry[] {
    const entries: ArchiveEntry[] = [];
    let next = 0;
    for (const slot of slots) {
      if ('entry' in slot) {
        entries.push(slot.entry);
        continue;
      }
      const result = results[next++] ?? { kind: 'failed', error: new Error('not read') };
      if (result.kind === 'data') entries.push(withContent(new FileEntry(slot.member, result.stat), result, this.reader.prepare));
      else if (result.kind === 'large') entries.push(new FileEntry(slot.member, result.stat));
      else if (result.kind === 'failed') this.onSkip(slot.member.path, result.error);
    }
    return entries;
  }
}
