import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { isWithin } from '../lib/within';

/**
 * Usage when the search index cannot answer (`--indexInterval 0`, or not built yet): one walk of
 * a folder, one entry at a time, whose figure is kept and shared by every request. A request never
 * walks for itself: the first one waits for the folder's one walk; afterwards the kept figure
 * answers at once. Writes filemgr admits add their growth to it at once (`grew`); any change
 * filemgr makes below the folder (fs/changes.ts: deletes, moves) has it walked again in the
 * background, as has age (`maxAgeMs`, for changes made outside). One walk per folder at a time.
 * A per-instance cache, like the index it stands in for.
 */
export interface WalkUsage {
  /** The bytes of the files below the folder `real`. */
  bytesBelow(real: string): Promise<number>;
  /** Adds the growth of a write admitted below `real` to its kept figure. */
  grew(real: string, bytes: number): void;
  /** Something changed at `real`: the folders holding it are walked again in the background. */
  changed(real: string): void;
}

interface Figure {
  bytes: number;
  /** When the walk that gave `bytes` started; -Infinity before the first walk. */
  at: number;
  walking?: Promise<number>;
  /** A change came during the walk: walk once more after it. */
  again?: boolean;
}

/** The walked usage of folders; `skip` are real paths never counted (the recycle bin, the cache). */
export function createWalkUsage(opts: { skip: readonly string[]; maxAgeMs: number; now?: () => number }): WalkUsage {
  const figures = new Map<string, Figure>();
  const now = opts.now ?? Date.now;
  const walk = (real: string, figure: Figure): Promise<number> => {
    if (figure.walking) {
      figure.again = true;
      return figure.walking;
    }
    const started = now();
    figure.walking = sumFiles(real, opts.skip)
      .then((bytes) => Object.assign(figure, { bytes, at: started }).bytes)
      .finally(() => {
        figure.walking = undefined;
        if (figure.again) {
          figure.again = false;
          void walk(real, figure).catch(() => undefined);
        }
      });
    return figure.walking;
  };
  return {
    bytesBelow(real) {
      let figure = figures.get(real);
      if (!figure) figures.set(real, (figure = { bytes: 0, at: -Infinity }));
      if (figure.at === -Infinity) return figure.walking ?? walk(real, figure);
      if (now() - figure.at > opts.maxAgeMs && !figure.walking) void walk(real, figure).catch(() => undefined);
      return Promise.resolve(figure.bytes);
    },
    grew(real, bytes) {
      const figure = figures.get(real);
      if (!figure || figure.at === -Infinity) return;
      // At once, for the next admission; a walk that already saw the file may have ended first, so one more settles it.
      figure.bytes = Math.max(0, figure.bytes + bytes);
      void walk(real, figure).catch(() => undefined);
    },
    changed(real) {
      for (const [folder, figure] of figures) {
        if (figure.at !== -Infinity && (isWithin(folder, real) || isWithin(real, folder))) void walk(folder, figure).catch(() => undefined);
      }
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
