import { opendir } from 'node:fs/promises';

/**
 * Whether the tree below `root` holds at most `limit` entries (what `skip` names, and what lies
 * below it, not counted). Reading stops at the first entry past the limit, so a large tree costs
 * one Dir handle's buffer, not a walk; an unreadable folder counts as empty, as the build skips it.
 */
export async function holdsAtMost(root: string, limit: number, skip: ReadonlySet<string>): Promise<boolean> {
  if (limit <= 0) return false;
  let count = 0;
  const stack = [root];
  for (let dir = stack.pop(); dir !== undefined; dir = stack.pop()) {
    const handle = await opendir(dir, { bufferSize: 256 }).catch(() => null);
    if (!handle) continue;
    for await (const entry of handle) {
      const real = dir === '/' ? `/${entry.name}` : `${dir}/${entry.name}`;
      if (skip.has(real)) continue;
      // Leaving the loop closes the handle.
      if (++count > limit) return false;
      if (entry.isDirectory()) stack.push(real);
    }
  }
  return true;
}
