import { execFile } from 'node:child_process';
import { open } from 'node:fs/promises';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Writes a file's pages to disk and drops them from the page cache, so that the first runs map
 * pages read back from disk. Linux 6.18 caches a file that was just written in large folios, and a
 * process that touches one page of such a folio in a mapping of the executable gets the whole folio
 * in its RSS: a server started right after `npm run build` sat at 95 MB idle instead of 76 MB
 * (P2's goal is 80 MB). GNU dd's `iflag=nocache count=0` is posix_fadvise(POSIX_FADV_DONTNEED) on
 * the whole file, which Node does not offer; the fsync first, because dirty pages are not dropped.
 * Returns why it could not (no GNU dd), for the build's log; nothing else depends on it.
 */
export async function dropFromPageCache(path: string): Promise<string | undefined> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await run('dd', [`if=${path}`, 'iflag=nocache', 'count=0', 'status=none']);
    return undefined;
  } catch (err) {
    return `could not drop ${path} from the page cache (${(err as Error).message.trim()}); its first starts may show a higher RSS`;
  }
}
