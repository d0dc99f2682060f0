import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';

/**
 * Usage when the search index cannot answer (`--indexInterval 0`, or not built yet): one walk of
 * a folder, one entry at a time, whose figure is kept and shared by every request. A request never
 * walks for itself: the first one waits for the folder's one walk; afterwards the figure answers
 * at once, is moved by the writes filemgr admits (`grew`), and is walked again in the background
 * when it is older than `maxAgeMs` (what changed outside or was deleted shows then). A
 * per-instance cache, like the index it stands in for.
 */
export interface WalkUsage {
  /** The bytes of the files below the folder `real`. */
  bytesBelow(real: string): Promise<number>;
  /** Adds the growth of a write admitted below `real` to its kept figure. */
  grew(real: string, bytes: number): void;
}

interface Figure {
  bytes: number;
  at: number;
  walking?: Promise<number>;
}

/** The walked usage of folders, kept `maxAgeMs`; `skip` are real paths never counted (the recycle bin, the cache). */
export function createWalkUsage(opts: { skip: readonly string[]; maxAgeMs: number; now?: () => number }): WalkUsage {
  const figures = new Map<string, Figure>();
  const now = opts.now ?? Date.now;
  const walkAgain = (real: string, figure: Figure): Promise<number> => {
    figure.walking ??= sumFiles(real, opts.skip)
      .then((bytes) => {
        figures.set(real, { bytes, at: now() });
        return bytes;
      })
      .finally(() => (figure.walking = undefined));
    return figure.walking;
  };
  return {
    async bytesBelow(real) {
      let figure = figures.get(real);
      if (!figure) {
        figure = { bytes: 0, at: -Infinity };
        figures.set(real, figure);
        return walkAgain(real, figure);
      }
      if (figure.at === -Infinity) return figure.walking ?? walkAgain(real, figure);
      if (now() - figure.at > opts.maxAgeMs) void walkAgain(real, figure).catch(() => undefined);
      return figure.bytes;
    },
    grew(real, bytes) {
      const figure = figures.get(real);
      if (figure) figure.bytes = Math.max(0, figure.bytes + bytes);
    },
  };
}

/** The sum of the sizes of the regular files below `root`, read one folder at a time. */
export async function sumFiles(root: string, skip: readonly string[]): Promise<number> {
  let bytes = 0;
  let seen = 0;
  const stack = [root];
  for (let dir = stack.pop(); dir !== undefined; dir = stack.pop()) {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const real = join(dir, entry.name);
      if (skip.includes(real)) continue;
      if (entry.isDirectory()) stack.push(real);
      else if (entry.isFile()) bytes += (await lstat(real).catch(() => null))?.size ?? 0;
      // Other requests get a turn on a large tree.
      if (++seen % 1000 === 0) await yieldToLoop();
    }
  }
  return bytes;
}
