import { statfs } from 'node:fs/promises';
import { fsError } from './fs-error';
import type { Target } from './scope';

/** Disk usage of a volume (api.md §4.4 DiskUsage). */
export interface DiskUsage {
  total: number;
  used: number;
}

/** Total and used bytes of the filesystem holding a gated directory (statfs). */
export async function diskUsage(target: Target): Promise<DiskUsage> {
  try {
    const s = await statfs(target.resolved);
    return { total: s.blocks * s.bsize, used: (s.blocks - s.bfree) * s.bsize };
  } catch (err) {
    throw fsError(err);
  }
}
