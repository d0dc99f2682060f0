import { createReadStream, createWriteStream } from 'node:fs';
import { open, rename, rm, stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { pipeline } from 'node:stream/promises';
import { linesBackwards } from './backwards';
import { parseEntry } from './entry';

/** The time of the first entry of a line list, or undefined when none parses. */
function timeOf(line: string | undefined): number | undefined {
  const entry = line === undefined ? undefined : parseEntry(line);
  return entry ? Date.parse(entry.time) : undefined;
}

/** The time of the newest entry of a file (its last line that parses). */
async function lastTime(path: string, size: number): Promise<number | undefined> {
  const handle = await open(path, 'r');
  try {
    for await (const lines of linesBackwards(handle, size)) {
      const t = lines.map(({ line }) => timeOf(line)).find((v) => v !== undefined);
      if (t !== undefined) return t;
    }
    return undefined;
  } finally {
    await handle.close();
  }
}

/** The byte offset of the first line whose entry is not older than `cutoff` (entries are in time order). */
async function firstKept(path: string, cutoff: number): Promise<{ offset: number; first: boolean }> {
  const lines = createInterface({ input: createReadStream(path), crlfDelay: Infinity });
  let offset = 0;
  let first = true;
  for await (const line of lines) {
    const t = timeOf(line);
    if (t !== undefined && t >= cutoff) {
      lines.close();
      return { offset, first };
    }
    offset += Buffer.byteLength(line) + 1;
    first = false;
  }
  return { offset, first };
}

/**
 * Drops the entries of a JSON-lines log file older than `cutoff`: the whole file when its newest
 * entry is, else the older head (copied to a temporary file renamed over it). Answers the size
 * left (0 when the file is gone or was never there).
 */
export async function pruneFile(path: string, cutoff: number): Promise<number> {
  const size = (await stat(path).catch(() => undefined))?.size;
  if (size === undefined) return 0;
  const newest = await lastTime(path, size);
  if (newest === undefined || newest < cutoff) {
    await rm(path, { force: true });
    return 0;
  }
  const { offset, first } = await firstKept(path, cutoff);
  if (first || offset === 0) return size;
  const temp = `${path}.pruning`;
  await pipeline(createReadStream(path, { start: offset }), createWriteStream(temp, { mode: 0o600, flush: true }));
  await rename(temp, path);
  return size - offset;
}
