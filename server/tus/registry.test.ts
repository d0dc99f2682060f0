import { mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryEphemeral } from '../state/ephemeral';
import { createUploadRegistry, type UploadOwner, type UploadRegistry } from './registry';

const TTL = 120;
const MODES = { fileMode: 0o640, dirMode: 0o750 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

let dir: string;
let registry: UploadRegistry;

function owner(name: string, over: Partial<UploadOwner> = {}): UploadOwner {
  return { userId: 1, target: join(dir, name), confines: () => Promise.resolve(true), ...over };
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'filemgr-registry-'));
  registry = createUploadRegistry({ ttlMs: TTL });
});

afterEach(async () => {
  registry.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the upload registry', () => {
  it('keeps an upload in a hidden file named after its key and length', async () => {
    const upload = await registry.create(owner('a.bin'), { length: 42, ...MODES });
    expect(upload.temp).toBe(join(dir, `.filemgr-tmp-tus-${upload.key}-42`));
    expect((await stat(upload.temp)).size).toBe(0);
    expect(await registry.find(owner('a.bin'))).toBe(upload);
  });

  it('gives each user their own upload of the same target', async () => {
    const mine = await registry.create(owner('a.bin'), { length: 1, ...MODES });
    expect(await registry.find(owner('a.bin', { userId: 2 }))).toBeUndefined();
    const theirs = await registry.create(owner('a.bin', { userId: 2 }), { length: 1, ...MODES });
    expect(theirs.temp).not.toBe(mine.temp);
  });

  it('removes only the temporary file once the TTL passes in silence', async () => {
    await writeFile(join(dir, 'a.bin'), 'original');
    const upload = await registry.create(owner('a.bin'), { length: 10, ...MODES });
    await sleep(TTL * 3);
    expect(await readdir(dir)).toEqual(['a.bin']);
    expect(await readFile(join(dir, 'a.bin'), 'utf8')).toBe('original');
    expect(upload.gone).toBe(true);
    expect(await registry.find(owner('a.bin'))).toBeUndefined();
  });

  it('restarts the TTL with every request', async () => {
    const upload = await registry.create(owner('a.bin'), { length: 10, ...MODES });
    for (let i = 0; i < 5; i++) {
      await sleep(TTL / 2);
      await registry.exclusive(upload, () => Promise.resolve());
    }
    expect(upload.gone).toBe(false);
    expect((await readdir(dir)).length).toBe(1);
  });

  it('never expires an upload while a request is working on it', async () => {
    const upload = await registry.create(owner('a.bin'), { length: 10, ...MODES });
    await registry.exclusive(upload, () => sleep(TTL * 3));
    expect(upload.gone).toBe(false);
    await sleep(TTL * 3);
    expect(upload.gone).toBe(true);
    expect(await readdir(dir)).toEqual([]);
  });

  it('leaves the file when the folder no longer lies in the owner scope', async () => {
    const upload = await registry.create(owner('a.bin', { confines: () => Promise.resolve(false) }), { length: 10, ...MODES });
    await sleep(TTL * 3);
    expect(upload.gone).toBe(true);
    expect(await readdir(dir)).toHaveLength(1);
  });

  it('runs requests on one upload one at a time, and refuses them once it is gone', async () => {
    const upload = await registry.create(owner('a.bin'), { length: 10, ...MODES });
    const order: string[] = [];
    const first = registry.exclusive(upload, async () => {
      await sleep(30);
      order.push('first');
    });
    const second = registry.exclusive(upload, () => registry.abort(upload).then(() => order.push('abort')));
    const third = registry.exclusive(upload, () => Promise.resolve(order.push('third')));
    await first;
    await second;
    await expect(third).rejects.toMatchObject({ code: 'not_found' });
    expect(order).toEqual(['first', 'abort']);
    expect(await readdir(dir)).toEqual([]);
  });

  it('finds an upload on disk after a restart, and forgets one silent for longer than the TTL', async () => {
    const upload = await registry.create(owner('a.bin'), { length: 7, ...MODES });
    await writeFile(upload.temp, 'abc');
    registry.close();
    const restarted = createUploadRegistry({ ttlMs: 60_000 });
    const found = await restarted.find(owner('a.bin'));
    expect(found).toMatchObject({ temp: upload.temp, length: 7, target: join(dir, 'a.bin') });
    restarted.close();
    await sleep(TTL * 2);
    const later = createUploadRegistry({ ttlMs: TTL });
    expect(await later.find(owner('a.bin'))).toBeUndefined();
    expect(await readdir(dir)).toEqual([]);
    later.close();
  });

  it('lets concurrent creations of one upload each replace the one before, leaving the last', async () => {
    const uploads = await Promise.all([1, 2, 3, 4].map((length) => registry.create(owner('a.bin'), { length, ...MODES })));
    const last = uploads[3];
    expect(uploads.slice(0, 3).every((u) => u.gone)).toBe(true);
    expect(last?.gone).toBe(false);
    expect(await registry.find(owner('a.bin'))).toBe(last);
    expect(await readdir(dir)).toEqual([`.filemgr-tmp-tus-${last?.key}-4`]);
  });

  it('lets concurrent creations after a restart replace the upload found on disk', async () => {
    const before = await registry.create(owner('a.bin'), { length: 7, ...MODES });
    registry.close();
    const restarted = createUploadRegistry({ ttlMs: 60_000 });
    try {
      const uploads = await Promise.all([5, 6, 8].map((length) => restarted.create(owner('a.bin'), { length, ...MODES })));
      expect(await restarted.find(owner('a.bin'))).toBe(uploads[2]);
      expect(await readdir(dir)).toEqual([`.filemgr-tmp-tus-${before.key}-8`]);
    } finally {
      restarted.close();
    }
  });

  describe('shared by two instances (one shared-ephemeral store, one root)', () => {
    const pair = () => {
      const shared = createMemoryEphemeral({ sweepMs: 0 });
      return { shared, a: createUploadRegistry({ ttlMs: 60_000, ephemeral: shared }), b: createUploadRegistry({ ttlMs: 60_000, ephemeral: shared }) };
    };

    it('lets the other instance find, resume and finish an upload, after which neither knows it', async () => {
      const { a, b } = pair();
      const made = await a.create(owner('a.bin'), { length: 6, ...MODES });
      const there = await b.find(owner('a.bin'));
      expect(there).toMatchObject({ id: made.id, temp: made.temp, length: 6 });
      await writeFile(made.temp, 'abc');
      expect(await b.offset(there!)).toBe(3);
      // As a completed upload: the file moved into place, then the upload finished.
      await b.exclusive(there!, async () => {
        await rename(made.temp, made.target);
        await b.finish(there!);
      });
      expect(there?.gone).toBe(true);
      expect(await a.find(owner('a.bin'))).toBeUndefined();
      expect(made.gone).toBe(true);
      a.close();
      b.close();
    });

    it('answers 404 on one instance for an upload the other replaced', async () => {
      const { a, b } = pair();
      const first = await a.create(owner('a.bin'), { length: 5, ...MODES });
      const second = await b.create(owner('a.bin'), { length: 5, ...MODES });
      expect(second.id).not.toBe(first.id);
      await expect(a.exclusive(first, () => Promise.resolve('written'))).rejects.toMatchObject({ code: 'not_found' });
      expect((await a.find(owner('a.bin')))?.id).toBe(second.id);
      a.close();
      b.close();
    });

    it('tells the other instance the offset a running PATCH has made durable so far, until it ends', async () => {
      const { a, b } = pair();
      const made = await a.create(owner('a.bin'), { length: 10, ...MODES });
      const there = await b.find(owner('a.bin'));
      let durable = 0;
      const finished = gate();
      const patching = a.exclusive(made, async () => {
        a.writing(made, () => durable);
        await writeFile(made.temp, 'abcdefg');
        durable = 6;
        await finished.opened;
        a.writing(made, undefined);
      });
      await expect.poll(() => b.offset(there!), { timeout: 5000, interval: 50 }).toBe(6);
      finished.open();
      await patching;
      expect(await b.offset(there!)).toBe(7);
      a.close();
      b.close();
    });

    it('ends a PATCH running on one instance when the other aborts the upload', async () => {
      const { a, b } = pair();
      const made = await a.create(owner('a.bin'), { length: 10, ...MODES });
      const there = await b.find(owner('a.bin'));
      const entered = gate();
      const patching = a.exclusive(made, (signal) => {
        a.writing(made, () => 0);
        entered.open();
        // A stalled body: only the signal ends it.
        return new Promise<string>((resolve) => signal.addEventListener('abort', () => resolve('interrupted')));
      });
      await entered.opened;
      b.interrupt(there!);
      await b.exclusive(there!, () => b.abort(there!));
      expect(await patching).toBe('interrupted');
      expect(await readdir(dir)).toEqual([]);
      expect(await a.find(owner('a.bin'))).toBeUndefined();
      a.close();
      b.close();
    });

    it('cuts the file back to what a holder that died mid-write had made durable, and tells that offset meanwhile', async () => {
      const { shared, a, b } = pair();
      const made = await a.create(owner('a.bin'), { length: 10, ...MODES });
      // The other instance wrote 8 bytes, had said 4 were durable, and died holding no lock any more.
      await writeFile(made.temp, 'abcdefgh');
      await shared.put(`tus:${made.key}`, { id: made.id, target: made.target, temp: made.temp, length: 10, writing: { durable: 4 } });
      const there = await b.find(owner('a.bin'));
      expect(await b.offset(there!)).toBe(4);
      await b.exclusive(there!, () => Promise.resolve());
      expect(await readFile(made.temp, 'utf8')).toBe('abcd');
      expect(await b.offset(there!)).toBe(4);
      a.close();
      b.close();
    });
  });
});
