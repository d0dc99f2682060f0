import { once } from 'node:events';
import { PassThrough, type Readable } from 'node:stream';
import { pack as tarPack, type Header, type Pack } from 'tar-stream';
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

type EntryHeader = Partial<Header> & Pick<Header, 'name'>;
type Sink = ReturnType<Pack['entry']>;

interface TarTarget {
  pack: Pack;
  out: PassThrough;
}

/**
 * An uncompressed tar of the entries, streamed. tar-stream writes ustar headers and switches to
 * a pax header for names that ustar cannot hold (non-ASCII, longer than 100/155 characters).
 */
export function tarStream(entries: AsyncIterable<ArchiveEntry>, ctx: WriterContext): Readable {
  const target: TarTarget = { pack: tarPack(), out: new PassThrough() };
  // The pack is a streamx stream; piping into a Node PassThrough gives callers a plain Node
  // Readable and lets waitForRoom see when the client is not keeping up.
  target.pack.pipe(target.out);
  target.pack.on('error', (err: unknown) => target.out.destroy(toError(err)));
  void fillTar(target, entries, ctx).then(
    () => {
      if (!ctx.signal.aborted) target.pack.finalize();
    },
    (err: unknown) => target.out.destroy(toError(err)),
  );
  return target.out;
}

async function fillTar(target: TarTarget, entries: AsyncIterable<ArchiveEntry>, ctx: WriterContext): Promise<void> {
  for await (const accepted of acceptedEntries(entries, ctx)) {
    await waitForRoom(target.out, ctx.signal);
    if (ctx.signal.aborted) return;
    if (accepted.entry.isDir) {
      await startEntry(target.pack, headerOf(accepted)).done.then(throwIfError);
    } else {
      await addFile(target.pack, accepted, ctx);
    }
  }
}

function headerOf({ entry, name }: AcceptedEntry): EntryHeader {
  return {
    name,
    type: entry.isDir ? 'directory' : 'file',
    size: entry.isDir ? 0 : entry.size,
    mode: permissions(entry),
    mtime: entry.mtime,
  };
}

interface StartedEntry {
  sink: Sink;
  /** Settles with the entry's error instead of rejecting, so an abandoned entry never leaves an unhandled rejection. */
  done: Promise<Error | undefined>;
}

function startEntry(pack: Pack, header: EntryHeader): StartedEntry {
  let settle: (err: Error | undefined) => void = () => undefined;
  const done = new Promise<Error | undefined>((resolve) => {
    settle = resolve;
  });
  const sink = pack.entry(header, (err) => settle(err ?? undefined));
  // Errors reach us through the entry callback; without a listener streamx would also emit them
  // as 'error' and crash the process when a client disconnects mid-file.
  sink.on('error', () => undefined);
  return { sink, done };
}

function throwIfError(err: Error | undefined): void {
  if (err) throw err;
}

async function addFile(pack: Pack, accepted: AcceptedEntry, ctx: WriterContext): Promise<void> {
  let body: FileBody;
  try {
    body = await openBody(accepted.entry, ctx.onSkip);
  } catch (err) {
    ctx.onSkip(accepted.name, toError(err));
    return;
  }
  const { sink, done } = startEntry(pack, headerOf(accepted));
  // Leaving the loop early (abort) returns the generator, which closes the file.
  for await (const chunk of body) {
    if (ctx.signal.aborted) return;
    if (!sink.write(chunk)) await drained(sink, ctx.signal);
  }
  if (ctx.signal.aborted) return;
  sink.end(null); // streamx types require an argument; null adds no data
  throwIfError(await done);
}

async function drained(sink: Sink, signal: AbortSignal): Promise<void> {
  try {
    await once(sink, 'drain', { signal });
  } catch (err) {
    if (!signal.aborted) throw toError(err);
  }
}
