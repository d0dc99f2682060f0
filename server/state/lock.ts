import { open, readFile, rm, stat } from 'node:fs/promises';

const STALE_MS = 30_000;
const WAIT_MS = 10_000;

/**
 * An exclusive lock between processes (the server and a CLI command on the same database):
 * a `<db>.lock` file created with O_EXCL holding the owner's pid. A lock whose owner is gone,
 * or that is older than 30 s, is stale and taken over.
 */
export async function acquireFileLock(lockPath: string): Promise<() => Promise<void>> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    try {
      const fh = await open(lockPath, 'wx', 0o600);
      await fh.writeFile(String(process.pid));
      await fh.close();
      return () => rm(lockPath, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    if (await isStale(lockPath)) {
      await rm(lockPath, { force: true });
      continue;
    }
    if (Date.now() > deadline) {
      throw new Error(`the database is locked by another filemgr process (${lockPath}); if none is running, delete that file`);
    }
    await new Promise((r) => setTimeout(r, 15));
  }
}

async function isStale(lockPath: string): Promise<boolean> {
  try {
    const [text, info] = await Promise.all([readFile(lockPath, 'utf8'), stat(lockPath)]);
    if (Date.now() - info.mtimeMs > STALE_MS) return true;
    const pid = Number(text);
    if (!Number.isInteger(pid) || pid <= 0) return false;
    return !processAlive(pid);
  } catch {
    return false;
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
