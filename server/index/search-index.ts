import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { Worker } from 'node:worker_threads';
import type { BuildMessage, BuildRequest } from './build-protocol';
import { KIND, openIndexDb, readMeta } from './index-db';
import { IndexReader, type IndexHit, type IndexSearch } from './index-query';
import { rescan } from './index-rescan';
import type { TreeChange } from '../fs/changes';
import { IndexWriter } from './index-writer';
import { UsageTotals } from './usage';
import { buildIndexFileInSlices } from './build-tree';
import { holdsAtMost } from './small-tree';

/**
 * Trees up to this size are built in the server's own thread, in slices of at most INLINE_SLICE_MS
 * between turns of the event loop (the last step, the parent index and the trigram index, is one
 * statement: about 20 ms for 10,000 entries), instead of by a worker: a worker, even for an
 * empty root, kept the idle server 8-10 MB bigger 5 s after the start (its isolate's pooled pages,
 * the code it touched) and some MB for good. Measured on a 2,424-entry tree, from a cold page
 * cache: 86 MB idle with the worker, 79 MB built here, 76-79 MB without an index.
 */
export const INLINE_UP_TO = 10_000;
const INLINE_SLICE_MS = 10;

export interface SearchIndexOptions {
  /** The real path of the served root. */
  root: string;
  /** Where the index file lives; '' for a private temporary folder removed at close. */
  dir: string;
  /** How often folders changed outside are looked for (ms); 0 = never after the build. */
  intervalMs: number;
  /** The builder worker's code (server/lib/worker-code.ts). */
  workerCode: () => Promise<string>;
  /** Real paths the index leaves out (the server's own cache). */
  skip: string[];
  /** A tree of at most this many entries is built in the server's own thread (default INLINE_UP_TO; 0 = always the worker). */
  inlineUpTo?: number;
  log: { info(message: string): void; warn(err: unknown, message: string): void };
  /** Called after each finished build (the server then gives its garbage back when idle). */
  onBuilt?: () => void;
}

/** The search index of one server (beyond.md §7): a per-instance cache of the tree below the root. */
export interface SearchIndex {
  /** Whether searches can be answered from the index. */
  ready(): boolean;
  /** Matches below the folder `rootReal`, in the walk's order; null when the walk must answer. */
  find(rootReal: string, search: IndexSearch): Promise<IndexHit[] | null>;
  /** Takes in a change made through filemgr; done before the request answers. */
  changed(change: TreeChange): Promise<void>;
  /** Resolves once the first build is done (or failed). */
  built(): Promise<void>;
  /** Looks for changes made outside now (the interval's work); answers the folders read again. */
  rescanNow(): Promise<number>;
  /** The bytes of the files below the folder `real` (quotas, ./usage.ts); null when not answerable now. */
  bytesBelow(real: string): Promise<number | null>;
  close(): Promise<void>;
}

interface Open {
  db: DatabaseSync;
  reader: IndexReader;
  writer: IndexWriter;
  usage: UsageTotals;
}

/** Starts the index: an index file of this root is used at once (and rescanned), else one is built by a worker. */
export async function startSearchIndex(opts: SearchIndexOptions): Promise<SearchIndex> {
  const privateDir = opts.dir === '';
  const dir = privateDir ? await mkdtemp(join(tmpdir(), 'filemgr-index-')) : opts.dir;
  if (!privateDir) await mkdir(dir, { recursive: true, mode: 0o700 });
  return new IndexLifecycle(opts, join(dir, 'search-index.sqlite'), privateDir ? dir : '').start();
}

class IndexLifecycle implements SearchIndex {
  private open: Open | undefined;
  private worker: Worker | undefined;
  private timer: NodeJS.Timeout | undefined;
  private scanning: Promise<number> | undefined;
  private building: Promise<void> | undefined;
  private readonly stop = new AbortController();
  private readonly pending: TreeChange[] = [];
  private firstBuild: Promise<void> = Promise.resolve();

  constructor(private readonly opts: SearchIndexOptions, private readonly file: string, private readonly privateDir: string) {}

  start(): this {
    const existing = this.tryOpen();
    if (existing) {
      this.open = existing;
      void this.rescanNow();
    } else {
      this.firstBuild = this.build();
    }
    if (this.opts.intervalMs > 0) {
      this.timer = setInterval(() => void (this.open ? this.rescanNow() : this.build()), this.opts.intervalMs);
      this.timer.unref();
    }
    return this;
  }

  ready(): boolean {
    return this.open !== undefined;
  }

  built(): Promise<void> {
    return this.firstBuild;
  }

  async find(rootReal: string, search: IndexSearch): Promise<IndexHit[] | null> {
    const open = this.open;
    if (!open) return null;
    const segments = open.writer.segments(rootReal);
    if (segments === null) return null;
    try {
      const at = open.reader.lookup(segments);
      // A folder the index has not seen yet (made outside since the last rescan): the walk answers.
      if (at?.kind !== KIND.dir) return null;
      return await open.reader.find(at.id, search);
    } catch (err) {
      this.broken(err);
      return null;
    }
  }

  async bytesBelow(real: string): Promise<number | null> {
    const open = this.open;
    if (!open) return null;
    try {
      return open.usage.known(real) ?? (await open.writer.exclusive(() => Promise.resolve(open.usage.count(real))));
    } catch (err) {
      this.broken(err);
      return null;
    }
  }

  async changed(change: TreeChange): Promise<void> {
    const open = this.open;
    if (!open) {
      if (this.pending.length < 10_000) this.pending.push(change);
      return;
    }
    try {
      await open.writer.apply(change);
    } catch (err) {
      this.broken(err);
    }
  }

  rescanNow(): Promise<number> {
    const open = this.open;
    if (!open) return Promise.resolve(0);
    this.scanning ??= rescan(open.db, { ...open, root: this.opts.root, signal: this.stop.signal })
      .then(async (reread) => {
        if (reread > 0) await open.writer.exclusive(() => Promise.resolve(open.usage.refresh()));
        return reread;
      })
      .catch((err: unknown) => {
        this.broken(err);
        return 0;
      })
      .finally(() => (this.scanning = undefined));
    return this.scanning;
  }

  async close(): Promise<void> {
    this.stop.abort();
    clearInterval(this.timer);
    await this.worker?.terminate();
    // A build still fetching the worker's code stops at its next step; it must not outlive the close.
    await this.building;
    await this.scanning;
    this.open?.db.close();
    this.open = undefined;
    if (this.privateDir) await rm(this.privateDir, { recursive: true, force: true });
  }

  /** An index file of this root and version, or undefined (none, another root, unreadable). */
  private tryOpen(): Open | undefined {
    let db: DatabaseSync | undefined;
    try {
      db = openIndexDb(this.file);
      if (readMeta(db)?.root !== this.opts.root) throw new Error('not an index of this root');
      const reader = new IndexReader(db);
      const writer = new IndexWriter(db, reader, { root: this.opts.root, skip: this.opts.skip });
      const usage = new UsageTotals(db, reader, writer);
      writer.observe = (change, apply) => usage.around(change, apply);
      return { db, reader, writer, usage };
    } catch {
      db?.close();
      return undefined;
    }
  }

  /** A query or change failed inside SQLite: the file is dropped and built again; the walk answers meanwhile. */
  private broken(err: unknown): void {
    if (this.stop.signal.aborted || !this.open) return;
    this.opts.log.warn(err, 'search index unusable; rebuilding it (searches walk the disk meanwhile)');
    this.open.db.close();
    this.open = undefined;
    this.firstBuild = this.build();
  }

  /** One build at a time: the interval may ask again while one runs. */
  private build(): Promise<void> {
    this.building ??= this.buildOnce().finally(() => (this.building = undefined));
    return this.building;
  }

  private async buildOnce(): Promise<void> {
    if (this.stop.signal.aborted) return;
    const request: BuildRequest = { root: this.opts.root, file: this.file, skip: this.opts.skip };
    try {
      const message = await this.buildFile(request);
      if (!message || this.stop.signal.aborted) return;
      if (!message.ok) throw new Error(message.error);
      this.open = this.tryOpen();
      if (!this.open) throw new Error('the built index could not be opened');
      this.opts.log.info(`search index built: ${message.result.entries} entries in ${message.result.ms} ms`);
      this.opts.onBuilt?.();
      // What changed during the build: the rescan finds new and removed names, the list the rest.
      for (const change of this.pending.splice(0)) await this.changed(change);
      await this.rescanNow();
    } catch (err) {
      if (!this.stop.signal.aborted) this.opts.log.warn(err, 'search index not built; searches walk the disk');
    }
  }

  /** A small tree is built here in slices, a larger one by the worker; undefined when closed meanwhile. */
  private async buildFile(request: BuildRequest): Promise<BuildMessage | undefined> {
    const limit = this.opts.inlineUpTo ?? INLINE_UP_TO;
    if (await holdsAtMost(request.root, limit, new Set(request.skip)).catch(() => false)) {
      if (this.stop.signal.aborted) return undefined;
      const result = await buildIndexFileInSlices(request, { sliceMs: INLINE_SLICE_MS, aborted: () => this.stop.signal.aborted });
      return result ? { ok: true, result } : undefined;
    }
    const code = await this.opts.workerCode();
    // Closed meanwhile (the code may take a moment to bundle when running from source).
    if (this.stop.signal.aborted) return undefined;
    return this.runWorker(code, request);
  }

  private runWorker(code: string, request: BuildRequest): Promise<BuildMessage | undefined> {
    // A small young generation: the build makes little garbage that lives, and V8 keeps a finished
    // isolate's young pages pooled for seconds after the worker ends (2 MB less resident then).
    const worker = new Worker(code, { eval: true, workerData: request, resourceLimits: { maxYoungGenerationSizeMb: 2 } });
    this.worker = worker;
    return new Promise<BuildMessage | undefined>((resolve, reject) => {
      worker.once('message', (message: BuildMessage) => resolve(message));
      worker.once('error', reject);
      worker.once('exit', () => resolve(undefined));
    }).finally(() => {
      this.worker = undefined;
      void worker.terminate();
    });
  }
}
