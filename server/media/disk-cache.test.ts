import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDiskCache, createPreviewCache } from './disk-cache';

let dir: string;
let root: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'disk-cache-'));
  root = join(dir, 'cache');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Every file under `base`, relative, sorted. */
async function listFiles(base: string): Promise<string[]> {
  const entries = await readdir(base, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(base.length + 1))
    .sort();
}

describe('createDiskCache', () => {
  it('stores key "key" at a/62/<sha1> under the root', async () => {
    const cache = createDiskCache(root);
    await cache.put('key', Buffer.from('value'));
    const file = join(root, 'a', '62', 'a62f2225bf70bfaccbc7f1ef2a397836717377de');
    expect(cache.pathOf('key')).toBe(file);
    expect(await readFile(file, 'utf8')).toBe('value');
    expect(await listFiles(root)).toEqual(['a/62/a62f2225bf70bfaccbc7f1ef2a397836717377de']);
  });

  it('creates its directories 0700 and its files 0600', async () => {
    const cache = createDiskCache(root);
    await cache.put('key', Buffer.from('value'));
    for (const d of [root, join(root, 'a'), join(root, 'a', '62')]) {
      expect((await stat(d)).mode & 0o777).toBe(0o700);
    }
    expect((await stat(cache.pathOf('key'))).mode & 0o777).toBe(0o600);
  });

  it('overwrites an entry and leaves no temporary file behind', async () => {
    const cache = createDiskCache(root);
    await cache.put('key', Buffer.from('first'));
    await cache.put('key', Buffer.from('second'));
    expect((await cache.get('key'))?.toString()).toBe('second');
    expect(await listFiles(root)).toHaveLength(1);
  });

  it('leaves one whole entry when concurrent writers race', async () => {
    const cache = createDiskCache(root);
    const big = (c: string) => Buffer.alloc(1 << 20, c);
    await Promise.all(['x', 'y', 'z'].map((c) => cache.put('key', big(c))));
    const got = await cache.get('key');
    expect(got?.length).toBe(1 << 20);
    expect(new Set(got)).toHaveProperty('size', 1);
    expect(await listFiles(root)).toHaveLength(1);
  });

  it('answers undefined for a missing entry and deletes without error', async () => {
    const cache = createDiskCache(root);
    expect(await cache.get('nope')).toBeUndefined();
    await cache.put('key', Buffer.from('v'));
    await cache.delete('key');
    await cache.delete('key');
    expect(await cache.get('key')).toBeUndefined();
  });

  it('rejects a write when the cache root cannot be created', async () => {
    await writeFile(join(dir, 'blocker'), '');
    const cache = createDiskCache(join(dir, 'blocker'));
    await expect(cache.put('key', Buffer.from('v'))).rejects.toThrow();
  });
});

describe('createPreviewCache', () => {
  const stamp = { mtimeMs: 1_700_000_000_123, size: 4242 };
  const entry = { body: Buffer.from('jpeg bytes'), contentType: 'image/jpeg', stamp };

  it('returns a stored preview for the same version of the file', async () => {
    const cache = createPreviewCache(root, ['thumb', 'big']);
    await cache.put('/srv/a.jpg', 'thumb', entry);
    const got = await cache.get('/srv/a.jpg', 'thumb', { ...stamp });
    expect(got?.body.toString()).toBe('jpeg bytes');
    expect(got?.contentType).toBe('image/jpeg');
    expect(await cache.get('/srv/a.jpg', 'big', stamp)).toBeUndefined();
  });

  it.each([
    ['a newer mtime', { mtimeMs: stamp.mtimeMs + 1, size: stamp.size }],
    ['another size', { mtimeMs: stamp.mtimeMs, size: stamp.size + 1 }],
  ])('misses when the source has %s', async (_label, changed) => {
    const cache = createPreviewCache(root, ['thumb', 'big']);
    await cache.put('/srv/a.jpg', 'thumb', entry);
    expect(await cache.get('/srv/a.jpg', 'thumb', changed)).toBeUndefined();
  });

  it('replaces the old version instead of keeping both', async () => {
    const cache = createPreviewCache(root, ['thumb', 'big']);
    await cache.put('/srv/a.jpg', 'thumb', entry);
    const newer = { mtimeMs: stamp.mtimeMs + 5000, size: 1 };
    await cache.put('/srv/a.jpg', 'thumb', { ...entry, body: Buffer.from('v2'), stamp: newer });
    expect((await cache.get('/srv/a.jpg', 'thumb', newer))?.body.toString()).toBe('v2');
    expect(await listFiles(root)).toHaveLength(1);
  });

  it('invalidates every size of a path and nothing of its neighbours', async () => {
    const cache = createPreviewCache(root, ['thumb', 'big']);
    await cache.put('/srv/a.jpg', 'thumb', entry);
    await cache.put('/srv/a.jpg', 'big', entry);
    await cache.put('/srv/b.jpg', 'thumb', entry);
    await cache.invalidate('/srv/a.jpg');
    expect(await cache.get('/srv/a.jpg', 'thumb', stamp)).toBeUndefined();
    expect(await cache.get('/srv/a.jpg', 'big', stamp)).toBeUndefined();
    expect(await cache.get('/srv/b.jpg', 'thumb', stamp)).toBeDefined();
    expect(await listFiles(root)).toHaveLength(1);
  });

  it('treats a foreign or damaged file at the entry path as a miss', async () => {
    const cache = createPreviewCache(root, ['thumb']);
    const disk = createDiskCache(root);
    await disk.put('/srv/a.jpg\0thumb', Buffer.from('not a preview entry'));
    expect(await cache.get('/srv/a.jpg', 'thumb', stamp)).toBeUndefined();
  });
});
