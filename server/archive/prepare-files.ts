import { deflateFiles } from './deflate-files';
import { permissions } from './entry';
import { padding, tarHeader } from './tar-header';
import type { FileToRead, Preparation, ReadOutcome, ReadReply } from './worker-protocol';

/** A file read whole: what the reader found, and its content (a view into the reader's arena). */
export interface ReadContent {
  file: FileToRead;
  outcome: ReadOutcome;
  content: Buffer | undefined;
}

type DataOutcome = Extract<ReadOutcome, { status: 'data' }>;

/** The parts of a file as its archive format stores it, and the outcome that describes them. */
function prepared(read: ReadContent & { outcome: DataOutcome; content: Buffer }, prepare: Preparation): { parts: Buffer[]; outcome: DataOutcome } {
  const { file, outcome, content } = read;
  if (prepare === 'raw') return { parts: [content], outcome };
  // A prepared file's size is what was read: a file that grew since its fstat is cut there.
  const base = { ...outcome, size: content.length };
  if (prepare === 'tar') {
    const header = tarHeader({ name: file.name ?? '', isDir: false, size: content.length, mode: permissions({ mode: outcome.mode, isDir: false }), mtime: new Date(outcome.mtimeMs) });
    const parts = [...header, content, padding(content.length)];
    return { parts, outcome: { ...base, length: parts.reduce((sum, part) => sum + part.length, 0) } };
  }
  const [sums] = deflateFiles([content]);
  const body = sums?.deflated ? Buffer.from(sums.deflated.buffer, sums.deflated.byteOffset, sums.deflated.byteLength) : content;
  return { parts: [body], outcome: { ...base, length: body.length, zip: { crc: sums?.crc ?? 0, deflated: body !== content } } };
}

/**
 * The reply of a batch: each file's content as `prepare` says, packed into one fresh buffer that
 * the caller may own (and a worker may transfer), outcomes in request order.
 */
export function packReply(reads: readonly ReadContent[], prepare: Preparation): ReadReply {
  const parts: Buffer[] = [];
  const outcomes = reads.map((read): ReadOutcome => {
    const { outcome, content } = read;
    if (outcome.status !== 'data' || !content) return outcome;
    const done = prepared({ ...read, outcome, content }, prepare);
    parts.push(...done.parts);
    return done.outcome;
  });
  const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return { kind: 'read', bytes, outcomes };
}
