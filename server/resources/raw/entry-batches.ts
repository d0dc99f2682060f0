import type { ArchiveEntry } from '../../archive/archive';
import type { FileRead, SmallFileReader } from '../../archive/file-reader';
import type { FileStat, FileToRead } from '../../archive/worker-protocol';
import { openLarge } from './large-file';

const BATCH_ENTRIES = 256;
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

function fileEntry(member: FileMember, stat: FileStat, data?: Buffer): ArchiveEntry {
  const entry: ArchiveEntry = {
    name: member.name,
    isDir: false,
    size: stat.size,
    mode: stat.mode,
    mtime: new Date(stat.mtimeMs),
    open: () => openLarge(member.file),
  };
  if (data) entry.data = data;
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

  /** A file: opened and described, and read when small, before its batch is handed over. */
  addFile(member: FileMember): void {
    this.#slots.push({ member });
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
      if (result.kind === 'data') entries.push(fileEntry(slot.member, result.stat, result.data));
      else if (result.kind === 'large') entries.push(fileEntry(slot.member, result.stat));
      else if (result.kind === 'failed') this.onSkip(slot.member.path, result.error);
    }
    return entries;
  }
}
