import { deflateFiles } from './deflate-files';
import type { ReadOutcome, ReadReply } from './worker-protocol';

type DataOutcome = Extract<ReadOutcome, { status: 'data' }>;

/**
 * The reply of a zip batch whose contents were read back to back into `contents`: each file
 * deflated on its own (its CRC-32 and, when deflating made it smaller, the deflated bytes; else
 * the content as is), packed into one fresh buffer the caller may own.
 */
export function zipReply(read: readonly ReadOutcome[], contents: Buffer): ReadReply {
  const parts: Buffer[] = [];
  let at = 0;
  const outcomes = read.map((outcome): ReadOutcome => {
    if (outcome.status !== 'data') return outcome;
    const content = contents.subarray(at, at + outcome.length);
    at += outcome.length;
    const [sums] = deflateFiles([content]);
    const body = sums?.deflated ? Buffer.from(sums.deflated.buffer, sums.deflated.byteOffset, sums.deflated.byteLength) : content;
    parts.push(body);
    // A prepared file's size is what was read: a file that grew since its fstat is cut there.
    const done: DataOutcome = { ...outcome, size: content.length, length: body.length, zip: { crc: sums?.crc ?? 0, deflated: body !== content } };
    return done;
  });
  const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.length;
  }
  return { kind: 'read', bytes, outcomes };
}
