import { utimes } from 'node:fs/promises';
import { fsError } from './fs-error';
import type { Target } from './scope';

/** Sets a gated entry's access and modification time (unix seconds; WebDAV clients keep dates). */
export async function setModified(target: Target, seconds: number): Promise<void> {
  try {
    await utimes(target.resolved, seconds, seconds);
  } catch (err) {
    throw fsError(err);
  }
}
