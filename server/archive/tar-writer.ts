import type { Readable } from 'node:stream';
import { runWriter, type ArchiveOutput } from './archive-output';
import { openWhenRoom } from './entry-body';
import {
  acceptedBatches,
  foreignPreparation,
  permissions,
  type AcceptedEntry,
  type EntryItem,
  type WriterContext,
} from './entry';
import { endOfArchive, padding, tarHeader } from './tar-header';

/**
 * An uncompressed tar of the entries, streamed. Entries whose content is already read (small
 * files) and directories are formatted straight into the output, a batch at a time; other files
 * are streamed in chunks, one file open at a time.
 */
export function tarStream(items: AsyncIterable<EntryItem>, ctx: WriterContext): Readable {
  return runWriter(async (output) => {
    await fillTar(output, items, ctx);
    if (!ctx.signal.aborted) output.add(endOfArchive());
  }, ctx.signal);
}

async function fillTar(output: ArchiveOutput, items: AsyncIterable<EntryItem>, ctx: WriterContext): Promise<void> {
  for await (const batch of acceptedBatches(items, ctx)) {
    for (const accepted of batch) {
      if (ctx.signal.aborted) return;
      if (accepted.entry.prepared) addPrepared(output, accepted);
      else if (accepted.entry.isDir || accepted.entry.data) addBuffered(output, accepted);
      else await addStreamed(output, accepted, ctx);
    }
    await output.room(ctx.signal);
  }
}

function headerOf({ entry, name }: AcceptedEntry, size: number): Buffer[] {
  return tarHeader({ name, isDir: entry.isDir, size, mode: permissions(entry), mtime: entry.mtime });
}

/** A small file whose whole record the reader made: its bytes go out as they are. */
function addPrepared(output: ArchiveOutput, { entry, name }: AcceptedEntry): void {
  if (entry.prepared?.format !== 'tar') throw foreignPreparation(name, entry.prepared?.format ?? 'nothing');
  output.add(entry.prepared.record);
}

function addBuffered(output: ArchiveOutput, accepted: AcceptedEntry): void {
  const data = accepted.entry.isDir ? undefined : accepted.entry.data;
  const size = data?.length ?? 0;
  for (const part of headerOf(accepted, size)) output.add(part);
  if (!data) return;
  output.add(data);
  output.add(padding(size));
}

/** A file read while it is written: the header announced its size, so the body is held to it. */
async function addStreamed(output: ArchiveOutput, accepted: AcceptedEntry, ctx: WriterContext): Promise<void> {
  const body = await openWhenRoom(accepted, output, ctx);
  if (!body) return;
  const { size } = accepted.entry;
  for (const part of headerOf(accepted, size)) output.add(part);
  // Leaving the loop early (abort) returns the body, which closes the file.
  for await (const chunk of body) {
    if (ctx.signal.aborted) return;
    output.add(chunk);
    await output.room(ctx.signal);
  }
  output.add(padding(size));
}
