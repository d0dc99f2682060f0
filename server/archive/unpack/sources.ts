import { createReadStream } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { createInflateRaw } from 'node:zlib';
import type yauzl from 'yauzl';
import { loadLater } from '../../lib/load-later';
import { AppError } from '../../errors';
import { entryPath, refused } from './entry-names';
import { decompressorOf, type ArchiveKind } from './formats';
import { checkRoom } from './limits';
import { asMalformed, MalformedArchive } from './malformed';
import type { EntryKind, Staging } from './staging';
import { tarEntries } from './tar-reader';
import { goesWhole, inflateWhole } from './zip-whole';

// Loaded by the first zip extraction, not at start-up (idle RSS, P2).
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (load-later.ts)
const zipLib = loadLater<typeof yauzl>('yauzl', () => require('yauzl'));

/** What a reader needs: the staging tree, the name check, and the names for messages. */
export interface ReadJob {
  archive: string;
  staging: Staging;
  /** entryPath plus the rules; throws the 400 naming the entry. */
  vet: (name: string) => string;
  /** Entry path -> the name as the archive spells it (for messages). */
  names: Map<string, string>;
  /** The archive worker's code (bzip2 and xz are decoded there). */
  workerSource: () => Promise<string>;
}

/** The codec's and reader's failures become MalformedArchive; the disk's (they carry a syscall) stay. */
export async function* readOrMalformed(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  try {
    for await (const chunk of source) yield chunk;
  } catch (err) {
    if (typeof err === 'object' && err !== null && 'syscall' in err) throw err;
    throw asMalformed(err);
  }
}

function vetted(job: ReadJob, name: string, kind: EntryKind): string {
  job.staging.count();
  const rel = job.vet(name);
  if (rel === '') return rel;
  job.names.set(rel, name);
  job.staging.claim(rel, kind, name);
  return rel;
}

/** Reads a tar stream (plain or compressed) into the staging tree as it arrives. */
export async function untar(job: ReadJob, kind: Exclude<ArchiveKind, 'zip'>): Promise<void> {
  const file = createReadStream(job.archive, { highWaterMark: 1024 * 1024 });
  const codec = decompressorOf(kind, job.workerSource);
  const source: Readable = codec === null ? file : file.pipe(codec);
  if (codec !== null) file.on('error', (err) => codec.destroy(err));
  try {
    for await (const e of tarEntries(readOrMalformed(source))) {
      if (e.type === 'skip') continue;
      const rel = vetted(job, e.name, e.type === 'hardlink' ? 'file' : e.type);
      if (rel === '') continue;
      if (e.type === 'dir') await job.staging.dir(rel);
      else if (e.type === 'file') await job.staging.file(rel, e.body);
      else if (e.type === 'symlink') job.staging.symlink(rel, e.linkname);
      else await job.staging.hardlink(rel, entryPath(e.linkname), e.name);
    }
  } finally {
    source.destroy();
    file.destroy();
  }
}

interface ZipItem {
  rel: string;
  kind: EntryKind;
  entry: yauzl.Entry;
}

const S_IFMT = 0o170000;
const ZIP_PARALLEL = 4;
const INFLATE_CHUNK = 256 * 1024;

/** Runs `work` over `list`, `limit` at a time; after a failure starts no more and rethrows it. */
async function eachLimited<T>(list: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const lane = async (): Promise<void> => {
    while (failure === undefined && next < list.length) {
      const item = list[next++]!;
      await work(item).catch((error: unknown) => {
        failure ??= { error };
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, list.length) }, lane));
  if (failure !== undefined) throw failure.error;
}
const S_IFLNK = 0o120000;
const MAX_LINK = 4096;

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Info-ZIP's zip on Unix stores UTF-8 names without the UTF-8 flag: a name that is valid UTF-8 is
 * read as UTF-8 (as unzip does), anything else as CP437 (the zip default).
 */
function utf8Flag(raw: Buffer): number {
  try {
    UTF8.decode(raw);
    return 0x800;
  } catch {
    return 0;
  }
}

function openZip(path: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    zipLib().open(path, { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: true }, (err, zip) => (err ? reject(asMalformed(err)) : resolve(zip)));
  });
}

/** The whole central directory, every entry checked, before a byte is written. */
function centralDirectory(zip: yauzl.ZipFile, job: ReadJob): Promise<ZipItem[]> {
  const items: ZipItem[] = [];
  return new Promise((resolve, reject) => {
    zip.on('error', (err: unknown) => reject(asMalformed(err)));
    zip.on('end', () => resolve(items));
    zip.on('entry', (entry: yauzl.Entry) => {
      try {
        const raw = entry.fileName as unknown as Buffer;
        const name = zipLib().getFileNameLowLevel(entry.generalPurposeBitFlag | utf8Flag(raw), raw, entry.extraFields, false);
        const mode = (entry.externalFileAttributes >>> 16) & S_IFMT;
        const kind: EntryKind = name.endsWith('/') ? 'dir' : mode === S_IFLNK ? 'symlink' : 'file';
        if ((entry.generalPurposeBitFlag & 1) !== 0) throw refused(name, 'it is encrypted');
        if (kind !== 'dir' && entry.compressionMethod !== 0 && entry.compressionMethod !== 8) throw refused(name, `its compression method ${entry.compressionMethod} is not supported`);
        const rel = vetted(job, name, kind);
        if (rel !== '') items.push({ rel, kind, entry });
        zip.readEntry();
      } catch (err) {
        reject(err instanceof Error ? err : new Error(String(err)));
      }
    });
    zip.readEntry();
  });
}

function entryStream(zip: yauzl.ZipFile, entry: yauzl.Entry, options: yauzl.ZipFileOptions = {}): Promise<Readable> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, options, (err, stream) => (err ? reject(asMalformed(err)) : resolve(stream)));
  });
}

/**
 * An entry's contents: a deflated entry is read raw and inflated here in 256 KiB pieces (yauzl's
 * own inflater gives 16 KiB ones, sixteen times the callbacks, buffers and writes), and its size
 * checked against the central directory as yauzl would.
 */
async function* entryBody(zip: yauzl.ZipFile, archive: FileHandle, entry: yauzl.Entry): AsyncGenerator<Buffer> {
  if (goesWhole(entry)) {
    yield await inflateWhole(archive, zip.fileSize, entry);
    return;
  }
  if (entry.compressionMethod !== 8) {
    yield* readOrMalformed(await entryStream(zip, entry));
    return;
  }
  const raw = await entryStream(zip, entry, { decompress: false });
  const inflate = createInflateRaw({ chunkSize: INFLATE_CHUNK });
  raw.on('error', (err) => inflate.destroy(err));
  let size = 0;
  try {
    for await (const chunk of readOrMalformed(raw.pipe(inflate))) {
      size += chunk.length;
      if (size > entry.uncompressedSize) throw new MalformedArchive('too many bytes in the stream');
      yield chunk;
    }
    if (size !== entry.uncompressedSize) throw new MalformedArchive('not enough bytes in the stream');
  } finally {
    raw.destroy();
    inflate.destroy();
  }
}

async function linkTarget(zip: yauzl.ZipFile, item: ZipItem, name: string): Promise<string> {
  if (item.entry.uncompressedSize > MAX_LINK) throw refused(name, 'its link target is too long');
  const parts: Buffer[] = [];
  for await (const chunk of readOrMalformed(await entryStream(zip, item.entry))) parts.push(chunk);
  return Buffer.concat(parts).toString('utf8');
}

/**
 * Reads a zip: its central directory first (names, rules, kinds, declared sizes and link
 * targets are all checked, and `beforeWrite` runs, before anything is written), then each entry
 * streamed from its offset (the archive is never held in memory).
 */
export async function unzip(job: ReadJob, beforeWrite: () => Promise<void>): Promise<void> {
  const zip = await openZip(job.archive);
  // Small entries are read through a handle of our own (zip-whole.ts), large ones through yauzl.
  const archive = await open(job.archive, 'r').catch((err: unknown) => {
    zip.close();
    throw err;
  });
  try {
    const limits = job.staging.limits;
    if (zip.entryCount > limits.maxEntries) throw new AppError('too_large', `more than ${limits.maxEntries} entries`);
    const items = await centralDirectory(zip, job);
    const declared = items.reduce((sum, i) => sum + i.entry.uncompressedSize, 0);
    if (declared > limits.maxBytes) throw new AppError('too_large', 'the archive expands more than 1000 times its size');
    checkRoom(declared, limits.room);
    for (const item of items) if (item.kind === 'symlink') job.staging.symlink(item.rel, await linkTarget(zip, item, job.names.get(item.rel) ?? item.rel));
    job.staging.checkLinks(job.names);
    await beforeWrite();
    for (const item of items) if (item.kind === 'dir') await job.staging.dir(item.rel);
    // Several entries at once: one file's fsync or inflate overlaps the next one's reads.
    await eachLimited(items.filter((i) => i.kind === 'file'), ZIP_PARALLEL, async (item) => job.staging.file(item.rel, entryBody(zip, archive, item.entry)));
  } finally {
    zip.close();
    await archive.close();
  }
}
