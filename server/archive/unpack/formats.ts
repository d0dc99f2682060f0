import type { Transform } from 'node:stream';
import * as zlib from 'node:zlib';
import { WorkerCompressor } from '../worker-stream';

/** The archive formats extraction reads (beyond.md §5). */
export type ArchiveKind = 'zip' | 'tar' | 'tar.gz' | 'tar.bz2' | 'tar.xz' | 'tar.zst';

const SUFFIXES: readonly [string, ArchiveKind][] = [
  ['.tar.gz', 'tar.gz'], ['.tgz', 'tar.gz'],
  ['.tar.bz2', 'tar.bz2'], ['.tbz2', 'tar.bz2'], ['.tbz', 'tar.bz2'],
  ['.tar.xz', 'tar.xz'], ['.txz', 'tar.xz'],
  ['.tar.zst', 'tar.zst'], ['.tzst', 'tar.zst'],
  ['.tar', 'tar'], ['.zip', 'zip'],
];

/** The kind of an archive by its name (case-insensitive), or null when it is none we read. */
export function archiveKindOf(name: string): ArchiveKind | null {
  const lower = name.toLowerCase();
  return SUFFIXES.find(([suffix]) => lower.endsWith(suffix))?.[1] ?? null;
}

/** node:zlib's zstd decompressor (Node >= 22.15; the pinned @types/node predates it). */
type ZstdZlib = { createZstdDecompress?: () => Transform };

/**
 * The decompressor of a compressed tar, or null for a plain tar: gzip and zstd from node:zlib
 * (on the libuv pool), bzip2 and xz in the archive worker (`workerSource`), off the event loop.
 */
export function decompressorOf(kind: Exclude<ArchiveKind, 'zip'>, workerSource: () => Promise<string>): Transform | null {
  switch (kind) {
    case 'tar':
      return null;
    case 'tar.gz':
      return zlib.createGunzip();
    case 'tar.bz2':
      return new WorkerCompressor('unbz2', workerSource);
    case 'tar.xz':
      return new WorkerCompressor('unxz', workerSource);
    case 'tar.zst': {
      const create = (zlib as unknown as ZstdZlib).createZstdDecompress;
      if (create === undefined) throw new Error('this Node has no zstd');
      return create();
    }
  }
}
