import { utimes } from 'node:fs/promises';
import { fsError } from './fs-error';
import type { Target } from './scope';

/** Sets a gated entry's access and modification time (unix seconds; WebDAV clients keep dates). */
export async function setModified(target: Target, seconds: number): Promise<void> {
  try {
    // Dates, not numbers: Node reads a negative number of seconds as "now".
    const at = new Date(seconds * 1000);
    await utimes(target.resolved, at, at);
  } catch (err) {
    throw fsError(err);
  }
}
