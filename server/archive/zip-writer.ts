import { Readable, type PassThrough } from 'node:stream';
import { finished } from 'node:stream/promises';
import { ZipFile } from 'yazl';
import { openBody, type FileBody } from './entry-body';
import {
  acceptedEntries,
  permissions,
  toError,
  waitForRoom,
  type AcceptedEntry,
  type ArchiveEntry,
  type WriterContext,
} from './entry';

// Unix file-type bits in the zip "external attributes": unzip restores permissions only when
// they are present, and yazl stores the mode as given.
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;

/**
 * A zip of the entries, streamed: yazl deflates each file as it is read (zlib, off the event
 * loop), sets the UTF-8 name flag and switches to zip64 by itself when sizes need it.
 */
export function zipStream(entries: AsyncIterable<ArchiveEntry>, ctx: WriterContext): Readable {
  const zip = new ZipFile();
  // yazl's outputStream is a PassThrough; typed loosely upstream.
  const output = zip.outputStream as PassThrough;
  zip.on('error', (err: unknown) => output.destroy(toError(err)));
  void fillZip(zip, entries, ctx).then(
    () => {
      if (!ctx.signal.aborted) zip.end();
    },
    (err: unknown) => output.destroy(toError(err)),
  );
  return output;
}

async function fillZip(zip: ZipFile, entries: AsyncIterable<ArchiveEntry>, ctx: WriterContext): Promise<void> {
  const output = zip.outputStream as PassThrough;
  for await (const accepted of acceptedEntries(entries, ctx)) {
    await waitForRoom(output, ctx.signal);
    if (ctx.signal.aborted) return;
    const { entry, name } = accepted;
    if (entry.isDir) {
      zip.addEmptyDirectory(name, { mtime: entry.mtime, mode: S_IFDIR | permissions(entry) });
      unpinLastName(zip);
    } else {
      await addFile(zip, accepted, ctx);
    }
  }
}

/** Adds one file and waits until yazl has consumed it, so only one file is open at a time. */
async function addFile(zip: ZipFile, { entry, name }: AcceptedEntry, ctx: WriterContext): Promise<void> {
  let body: FileBody;
  try {
    body = await openBody(entry, ctx.onSkip);
  } catch (err) {
    ctx.onSkip(name, toError(err));
    return;
  }
  if (ctx.signal.aborted) {
    await body.return();
    return;
  }
  const stream = Readable.from(body, { objectMode: false });
  // yazl stops reading when its output is destroyed; destroying the body closes the file.
  const stop = (): void => {
    stream.destroy();
  };
  ctx.signal.addEventListener('abort', stop, { once: true });
  try {
    zip.addReadStreamLazy(name, { mtime: entry.mtime, mode: S_IFREG | permissions(entry), size: entry.size }, handOverOnce(stream));
    unpinLastName(zip);
    await finished(stream);
  } catch (err) {
    if (!ctx.signal.aborted) throw toError(err);
  } finally {
    ctx.signal.removeEventListener('abort', stop);
  }
}

/**
 * yazl keeps every entry, with this callback, until the central directory is written. The
 * callback is created here, away from addFile's other closures (V8 shares one context among the
 * closures of a scope), and forgets the stream once handed over: nothing of a finished file stays
 * reachable, so memory stays flat across tens of thousands of files.
 */
function handOverOnce(stream: Readable): (give: (err: Error | null, stream: Readable) => void) => void {
  let pending: Readable | undefined = stream;
  return (give) => {
    const next = pending;
    pending = undefined;
    if (next) give(null, next);
    else give(new Error('zip entry pumped twice'), Readable.from([]));
  };
}

interface YazlInternals {
  entries?: { utf8FileName?: unknown }[];
}

/**
 * yazl keeps every entry until it writes the central directory, each with its name as a slice of
 * Node's shared Buffer pool. A slice pins its whole pool slab (64 KiB on Node 24), and other
 * buffers quickly fill the rest of the slab, so 20,000 files would pin hundreds of MiB. Moving
 * each name into a buffer of its own keeps the cost at the name's length. (yazl is pinned at
 * 3.3.1; should its internals change, this does nothing rather than break.)
 */
function unpinLastName(zip: ZipFile): void {
  const entry = (zip as unknown as YazlInternals).entries?.at(-1);
  const name = entry?.utf8FileName;
  if (!entry || !Buffer.isBuffer(name)) return;
  const own = Buffer.allocUnsafeSlow(name.length);
  name.copy(own);
  entry.utf8FileName = own;
}
