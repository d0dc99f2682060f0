/** The longest line sent as one message (api.md §3.18 step 9); longer lines arrive in pieces. */
export const MAX_LINE_BYTES = 64 * 1024;

const NEWLINE = 0x0a;
const CR = 0x0d;

/** A consumer of one output stream that hands on whole lines as they complete. */
export interface LineSplitter {
  /** Takes the next bytes of the stream. */
  push(chunk: Buffer): void;
  /** The stream ended: a last line without a newline is handed on too. */
  end(): void;
}

/** The largest cut at or below `max` that does not split a UTF-8 sequence. */
function utf8Cut(buf: Buffer, max: number): number {
  let cut = max;
  // Continuation bytes are 10xxxxxx; back up to the start of the character, at most 3 bytes.
  while (cut > max - 3 && cut > 0 && ((buf[cut] ?? 0) & 0xc0) === 0x80) cut--;
  return cut > 0 ? cut : max;
}

function withoutCr(line: Buffer): Buffer {
  return line.length > 0 && line[line.length - 1] === CR ? line.subarray(0, -1) : line;
}

/**
 * Splits a byte stream into lines as Go's bufio.ScanLines does (newline dropped, and a carriage
 * return before it), decoding each line as UTF-8; a line longer than `max` bytes is handed on
 * in pieces of at most `max` bytes, cut between characters.
 */
export function lineSplitter(onLine: (line: string) => void, max: number = MAX_LINE_BYTES): LineSplitter {
  let pending: Buffer = Buffer.alloc(0);
  return {
    push(chunk) {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      let start = 0;
      for (let nl = pending.indexOf(NEWLINE, start); nl >= 0; nl = pending.indexOf(NEWLINE, start)) {
        while (nl - start > max) {
          const cut = utf8Cut(pending.subarray(start, nl), max);
          onLine(pending.toString('utf8', start, start + cut));
          start += cut;
        }
        onLine(withoutCr(pending.subarray(start, nl)).toString('utf8'));
        start = nl + 1;
      }
      while (pending.length - start > max) {
        const cut = utf8Cut(pending.subarray(start), max);
        onLine(pending.toString('utf8', start, start + cut));
        start += cut;
      }
      pending = Buffer.from(pending.subarray(start));
    },
    end() {
      if (pending.length > 0) onLine(withoutCr(pending).toString('utf8'));
      pending = Buffer.alloc(0);
    },
  };
}
