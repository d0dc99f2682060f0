import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { errnoCode } from '../fs/fs-error';

/**
 * The preview disk cache (api.md §12): an entry for key k lives at h[0]/h[1:3]/h under the cache
 * root, h = sha1(k) in hex, directories 0700 and files 0600 because previews show users' pictures.
 */
export interface DiskCache {
  /** Absolute path of the file that holds `key`. */
  pathOf(key: string): string;
  /** The stored bytes, or undefined when there is no entry. */
  get(key: string): Promise<Buffer | undefined>;
  /** Stores `data` atomically: readers see the old entry or the new one, never a partial file. */
  put(key: string, data: Buffer): Promise<void>;
  /** Removes the entry; a missing entry is not an error. */
  delete(key: string): Promise<void>;
}

/** Returns a disk cache rooted at `root` (created 0700 on the first write). */
export function createDiskCache(root: string): DiskCache {
  const pathOf = (key: string): string => {
    const h = createHash('sha1').update(key).digest('hex');
    return join(root, h.slice(0, 1), h.slice(1, 3), h);
  };
  return {
    pathOf,
    async get(key) {
      try {
        return await readFile(pathOf(key));
      } catch (err) {
        if (errnoCode(err) === 'ENOENT') return undefined;
        throw err;
      }
    },
    async put(key, data) {
      const file = pathOf(key);
      await mkdir(dirname(file), { recursive: true, mode: 0o700 });
      // Temp sibling + rename: the rename is atomic within one directory.
      const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
      try {
        await writeFile(tmp, data, { mode: 0o600, flag: 'wx' });
        await rename(tmp, file);
      } catch (err) {
        await rm(tmp, { force: true });
        throw err;
      }
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
  };
}

/** What identifies one version of a source file: a change of either means a stale preview. */
export interface SourceStamp {
  mtimeMs: number;
  size: number;
}

/** A cached preview: the encoded image and the content type of those bytes. */
export interface CachedPreview {
  body: Buffer;
  contentType: string;
}

/** The preview cache on top of a DiskCache: one entry per (real path, preview size). */
export interface PreviewCache {
  /** The preview of `realPath` at `size`, if one was stored for this very version of the file. */
  get(realPath: string, size: string, stamp: SourceStamp): Promise<CachedPreview | undefined>;
  /** Stores the preview of this version of the file, replacing any older one. */
  put(realPath: string, size: string, entry: CachedPreview & { stamp: SourceStamp }): Promise<void>;
  /** Removes the previews of `realPath` at every size (overwrite, rename, delete). */
  invalidate(realPath: string): Promise<void>;
}

const MAGIC = 'filemgr-preview/1';
const HEADER_MAX = 512;

/**
 * Returns the preview cache. The key is real path + preview size, and the source's mtime and size
 * are stamped in the entry's first line and checked on every read. Keying on path and size only
 * (not mtime) lets invalidate() find every entry of a path without knowing the old stat, and
 * keeps one entry per file and size, so the cache never fills with previews of old versions.
 */
export function createPreviewCache(root: string, sizes: readonly string[]): PreviewCache {
  const disk = createDiskCache(root);
  const key = (realPath: string, size: string) => `${realPath}\0${size}`;
  return {
    async get(realPath, size, stamp) {
      const raw = await disk.get(key(realPath, size));
      if (!raw) return undefined;
      const entry = decodeEntry(raw);
      if (!entry || !sameStamp(entry.stamp, stamp)) return undefined;
      return { body: entry.body, contentType: entry.contentType };
    },
    async put(realPath, size, entry) {
      await disk.put(key(realPath, size), encodeEntry(entry));
    },
    async invalidate(realPath) {
      await Promise.all(sizes.map((size) => disk.delete(key(realPath, size))));
    },
  };
}

function sameStamp(a: SourceStamp, b: SourceStamp): boolean {
  return a.mtimeMs === b.mtimeMs && a.size === b.size;
}

function encodeEntry(entry: CachedPreview & { stamp: SourceStamp }): Buffer {
  const header = `${MAGIC} ${entry.stamp.mtimeMs} ${entry.stamp.size} ${entry.contentType}\n`;
  return Buffer.concat([Buffer.from(header, 'utf8'), entry.body]);
}

function decodeEntry(raw: Buffer): (CachedPreview & { stamp: SourceStamp }) | undefined {
  const end = raw.subarray(0, HEADER_MAX).indexOf(0x0a);
  if (end < 0) return undefined;
  const [magic, mtime, size, contentType] = raw.subarray(0, end).toString('utf8').split(' ');
  if (magic !== MAGIC || !contentType) return undefined;
  const stamp = { mtimeMs: Number(mtime), size: Number(size) };
  if (!Number.isFinite(stamp.mtimeMs) || !Number.isFinite(stamp.size)) return undefined;
  return { stamp, contentType, body: raw.subarray(end + 1) };
}
