import { open, type FileHandle } from 'node:fs/promises';

/** fsyncs a directory so a rename in it survives a power cut; some filesystems refuse, harmlessly. */
export async function syncDir(dir: string): Promise<void> {
  let fh: FileHandle | undefined;
  try {
    fh = await open(dir, 'r');
    await fh.sync();
  } catch {
    // The rename already happened; durability is best effort where directories cannot be synced.
  } finally {
    await fh?.close();
  }
}
