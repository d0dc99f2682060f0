import type { FileHandle } from 'node:fs/promises';

/** A line of a file and the byte offset where it starts. */
export interface PlacedLine {
  line: string;
  start: number;
}

const NEWLINE = 0x0a;

/**
 * The lines of an open file that end at or before byte `end`, last line first, read backwards in
 * chunks of `chunkSize` bytes: the newest entries of a log are read without reading the whole
 * file. Each yield is the complete lines of one chunk (last first); empty lines are skipped.
 */
export async function* linesBackwards(handle: FileHandle, end: number, chunkSize = 64 * 1024): AsyncGenerator<PlacedLine[]> {
  let pos = end;
  // The bytes of a line whose beginning lies in a chunk not read yet.
  let tail = Buffer.alloc(0);
  while (pos > 0) {
    const size = Math.min(chunkSize, pos);
    const chunk = Buffer.allocUnsafe(size);
    const { bytesRead } = await handle.read(chunk, 0, size, pos - size);
    // A file cut shorter meanwhile (a prune rewrote it): nothing sure is left to read.
    if (bytesRead < size) return;
    pos -= size;
    const joined = tail.length === 0 ? chunk : Buffer.concat([chunk, tail]);
    const lines: PlacedLine[] = [];
    let lineEnd = joined.length;
    for (let j = joined.lastIndexOf(NEWLINE, lineEnd - 1); j >= 0; j = j === 0 ? -1 : joined.lastIndexOf(NEWLINE, j - 1)) {
      if (lineEnd > j + 1) lines.push({ line: joined.toString('utf8', j + 1, lineEnd), start: pos + j + 1 });
      lineEnd = j;
    }
    tail = joined.subarray(0, lineEnd);
    if (pos === 0 && tail.length > 0) lines.push({ line: tail.toString('utf8'), start: 0 });
    if (lines.length > 0) yield lines;
  }
}
