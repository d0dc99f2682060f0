import type { ReadOutcome, ReadReply } from './worker-protocol';

/**
 * A reader worker's reply as it crosses threads: the outcomes as one table of numbers instead of
 * an object per file. Cloning thousands of small objects was a fifth of the reader's time.
 */
export interface WireReply {
  kind: 'read';
  bytes: Uint8Array;
  /** WIRE_FIELDS numbers per file: status, length, size, mode, mtimeMs, crc, zip (-1 none, 0 stored, 1 deflated). */
  table: Float64Array;
  /** The messages of the failed files, in order. */
  errors: string[];
}

/** Numbers per file in the table; file-reader.ts reads them straight off it. */
export const WIRE_FIELDS = 7;
export const WIRE_STATUSES = ['data', 'large', 'failed', 'skip'] as const;

function row(outcome: ReadOutcome): number[] {
  const status = WIRE_STATUSES.indexOf(outcome.status);
  if (outcome.status === 'failed' || outcome.status === 'skip') return [status, 0, 0, 0, 0, 0, -1];
  const length = outcome.status === 'data' ? outcome.length : 0;
  const zip = outcome.status === 'data' ? outcome.zip : undefined;
  return [status, length, outcome.size, outcome.mode, outcome.mtimeMs, zip?.crc ?? 0, zip ? Number(zip.deflated) : -1];
}

export function encodeReply(reply: ReadReply): WireReply {
  const table = new Float64Array(reply.outcomes.length * WIRE_FIELDS);
  const errors: string[] = [];
  reply.outcomes.forEach((outcome, i) => {
    table.set(row(outcome), i * WIRE_FIELDS);
    if (outcome.status === 'failed') errors.push(outcome.error);
  });
  return { kind: 'read', bytes: reply.bytes, table, errors };
}
