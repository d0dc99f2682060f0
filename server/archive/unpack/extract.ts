import { randomBytes } from 'node:crypto';
import { mkdir, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { AppError } from '../../errors';
import { fsError, parentError } from '../../fs/fs-error';
import { TEMP_PREFIX } from '../../fs/hidden';
import { lstatOrNull, tempSibling, type CreateModes } from '../../fs/write';
import type { ArchiveKind } from './formats';
import { limitsFor } from './limits';
import { MalformedArchive } from './malformed';
import { checkConflicts, placeStaged } from './place';
import { untar, unzip, type ReadJob } from './sources';
import { Staging } from './staging';

export interface ExtractOptions {
  /** Real path of the archive. */
  archive: string;
  kind: ArchiveKind;
  /** Real path of the destination folder (created when missing). */
  dest: string;
  override: boolean;
  /** entryPath plus the rules of the destination; throws the 400 naming the entry. */
  vet: (name: string) => string;
  modes: CreateModes;
  /** Bytes the user's quota leaves, or null. */
  room: number | null;
  /**
   * Runs the placement while the quota holds the extracted bytes (beyond.md §6): two extractions
   * that each fit the room seen at their start but not together are refused (507) before placing.
   */
  hold?: (bytes: number, place: () => Promise<void>) => Promise<void>;
  /** The archive worker's code (bzip2 and xz are decoded there). */
  workerSource: () => Promise<string>;
  /** Test seam: the entry limit (default 1,000,000). */
  maxEntries?: number;
}

/** The staging folder: beside a missing destination, inside an existing one (same filesystem). */
async function stagingFor(o: ExtractOptions): Promise<{ dir: string; existed: boolean }> {
  const found = await lstatOrNull(o.dest);
  if (found !== null && !found.isDirectory()) throw new AppError('exists');
  const existed = found !== null;
  if (!existed) {
    try {
      await mkdir(dirname(o.dest), { recursive: true, mode: o.modes.dirMode });
    } catch (err) {
      throw parentError(err);
    }
  }
  const dir = existed ? join(o.dest, `${TEMP_PREFIX}${randomBytes(8).toString('hex')}`) : tempSibling(o.dest);
  await mkdir(dir, { mode: o.modes.dirMode });
  return { dir, existed };
}

function translate(err: unknown): Error {
  if (err instanceof MalformedArchive) return new AppError('bad_request', `malformed archive: ${err.message}`);
  return fsError(err);
}

/**
 * Extracts an archive into a folder (beyond.md §5): everything goes into a hidden staging folder
 * first; refused names, links leaving the destination, limits and conflicts throw and remove it,
 * so the destination sees either the whole archive or nothing.
 */
export async function extractArchive(o: ExtractOptions): Promise<void> {
  const size = (await stat(o.archive)).size;
  const { dir, existed } = await stagingFor(o).catch((err: unknown) => Promise.reject(translate(err)));
  const staging = new Staging(dir, o.modes, limitsFor(size, o.room, o.maxEntries));
  const job: ReadJob = { archive: o.archive, staging, vet: o.vet, names: new Map(), workerSource: o.workerSource };
  try {
    if (o.kind === 'zip') await unzip(job, () => checkConflicts(o.dest, staging.kinds, o.override));
    else await untar(job, o.kind);
    await checkConflicts(o.dest, staging.kinds, o.override);
    await staging.finish(job.names);
    const place = (): Promise<void> => placeStaged(dir, o.dest, existed);
    await (o.hold ? o.hold(staging.written, place) : place());
  } catch (err) {
    // No fsync or close may still run in the folder when it is removed.
    await staging.settle().catch(() => undefined);
    await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    throw translate(err);
  }
}
