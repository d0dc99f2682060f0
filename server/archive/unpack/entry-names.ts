import { AppError } from '../../errors';

/** A refused entry: the whole extraction answers 400 naming it (beyond.md §5). */
export function refused(name: string, reason: string): AppError {
  return new AppError('bad_request', `refused entry "${name}": ${reason}`);
}

/**
 * The clean relative path of an archive entry ('' for the archive's root, as `./`), or a refusal:
 * a NUL byte, an absolute name (`/x`, `C:x`) or a `..` component anywhere.
 */
export function entryPath(name: string): string {
  if (name.includes('\0')) throw refused(name, 'the name holds a NUL byte');
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) throw refused(name, 'it has an absolute name');
  const parts = name.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.includes('..')) throw refused(name, 'it leaves the destination (..)');
  return parts.join('/');
}

const MAX_LINK_DEPTH = 40;

/**
 * Where a symbolic link stored at `rel` (relative to the destination) leads, following the
 * archive's own links on the way; null when it leaves the destination (an absolute target, a `..`
 * above the destination, or more than 40 links deep). Purely lexical: links are created last, so
 * nothing of the archive is ever written through a link.
 */
export function linkDestination(rel: string, target: string, links: ReadonlyMap<string, string>): string | null {
  let depth = 0;
  const resolveFrom = (dir: string[], to: string): string[] | null => {
    if (to.startsWith('/') || to === '' || ++depth > MAX_LINK_DEPTH) return null;
    let stack = [...dir];
    for (const comp of to.split('/')) {
      if (comp === '' || comp === '.') continue;
      if (comp === '..') {
        if (stack.pop() === undefined) return null;
        continue;
      }
      stack.push(comp);
      const next = links.get(stack.join('/'));
      if (next === undefined) continue;
      const resolved = resolveFrom(stack.slice(0, -1), next);
      if (resolved === null) return null;
      stack = resolved;
    }
    return stack;
  };
  return resolveFrom(rel.split('/').slice(0, -1), target)?.join('/') ?? null;
}
