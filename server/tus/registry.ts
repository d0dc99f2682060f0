import { open, rm } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { AppError } from '../errors';
import { translated } from '../fs/fs-error';
import { makeParent } from '../fs/write';
import { UPLOAD_TTL_MS } from './protocol';
import { findTemp, tempPathOf, tempsIn, uploadKey } from './temp-file';

/**
 * The unfinished tus uploads (api.md §3.17 "upload cache", §14): one per (user, target), each a
 * temporary file beside its target. An upload expires after `ttlMs` without a request (never
 * while a PATCH is streaming) and expiry removes only its temporary file, after checking through
 * the owner's path gate that the folder still lies in their scope. Requests on one upload run one
 * at a time; only a HEAD does not wait for a running PATCH (see Upload.durable).
 */

/** Whose upload, and where it goes. */
export interface UploadOwner {
  userId: number;
  /** Real path the complete file is renamed to (the gated target, symlinks followed). */
  target: string;
  /** The owner's gate: true when a real path still lies in their scope (checked before removals). */
  confines: (realPath: string) => Promise<boolean>;
  /** A secret that tells this upload from others to the same target (uploads through a link). */
  tag?: string;
}

/** One unfinished upload. */
export interface Upload {
  readonly key: string;
  readonly target: string;
  readonly temp: string;
  readonly length: number;
  /** Set once it finished, was aborted or expired: a request still holding it answers 404. */
  gone: boolean;
  /** While a PATCH runs (streaming or stalled): the offset durable so far, for a HEAD that will not wait. */
  durable?: (() => number) | undefined;
}

/** The size and the modes of a new upload (settings.fileMode / dirMode, api.md §5.8). */
export interface UploadSpec {
  length: number;
  fileMode: number;
  dirMode: number;
}

export interface RegistryOptions {
  /** Silence after which an upload expires (default 3 minutes, api.md §12). */
  ttlMs?: number;
  /** Told about failed removals of expired temporary files. */
  onError?: (err: unknown) => void;
}

export interface UploadRegistry {
  /**
   * Starts an upload of `length` bytes, replacing an unfinished one of the same user and target:
   * creates the target's missing folders (dirMode), sweeps the folder's abandoned temporary files,
   * creates the empty temporary file (fileMode).
   */
  create(owner: UploadOwner, spec: UploadSpec): Promise<Upload>;
  /** The owner's unfinished upload to the target: from memory, or after a restart from disk. */
  find(owner: UploadOwner): Promise<Upload | undefined>;
  /**
   * Runs `fn` alone on the upload; 404 when the upload is gone by the time its turn comes. `fn`
   * gets a signal that `interrupt` aborts.
   */
  exclusive<T>(upload: Upload, fn: (signal: AbortSignal) => Promise<T>): Promise<T>;
  /** Aborts the signal of the request running on the upload, if any (a DELETE ends a PATCH). */
  interrupt(upload: Upload): void;
  /** Forgets an upload whose file was moved into place. */
  finish(upload: Upload): void;
  /** Removes an upload's temporary file and forgets it. */
  abort(upload: Upload): Promise<void>;
  /** Removes expired temporary files in a folder left by a crash (at most once per TTL per folder). */
  sweep(dir: string, confines: UploadOwner['confines']): Promise<void>;
  /** Stops every expiry timer (the server is closing; the files stay for a restart). */
  close(): void;
}

interface Entry {
  upload: Upload;
  confines: UploadOwner['confines'];
  timer?: NodeJS.Timeout;
  busy: number;
  chain: Promise<unknown>;
  /** The running request's controller: interrupt aborts it. */
  running?: AbortController;
}

const SWEEP_MEMORY = 10_000;

type Confines = UploadOwner['confines'];

/** GHSA-m9f5-2232-frp6: removes a temporary file unless its folder was swapped for a link out of scope. */
async function removeTemp(temp: string, confines: Confines): Promise<void> {
  if (await confines(dirname(temp))) await rm(temp, { force: true });
}

class Registry implements UploadRegistry {
  private readonly entries = new Map<string, Entry>();
  private readonly removing = new Map<string, Promise<void>>();
  private readonly swept = new Map<string, number>();
  private readonly creating = new Map<string, Promise<void>>();

  constructor(
    private readonly ttl: number,
    private readonly onError: (err: unknown) => void,
  ) {}

  async find(owner: UploadOwner): Promise<Upload | undefined> {
    const key = uploadKey(owner.userId, owner.target, owner.tag);
    await this.removing.get(key);
    const known = this.entries.get(key);
    if (known) return known.upload;
    const found = await findTemp(owner.target, key);
    if (!found) return undefined;
    if (Date.now() - Number(found.stat.mtimeMs) > this.ttl) {
      await removeTemp(found.path, owner.confines);
      return undefined;
    }
    // Restored after a restart: the name gave the length, the file's size is the offset.
    return this.remember({ key, target: owner.target, temp: found.path, length: found.length, gone: false }, owner.confines);
  }

  async create(owner: UploadOwner, spec: UploadSpec): Promise<Upload> {
    // Creations of one upload run one after another: each replaces the one before it, and none
    // sees the temporary file of another half made or half removed.
    const key = uploadKey(owner.userId, owner.target, owner.tag);
    const run = (this.creating.get(key) ?? Promise.resolve()).then(() => this.replace(owner, spec, key));
    const tail = run.then(() => undefined, () => undefined);
    this.creating.set(key, tail);
    try {
      return await run;
    } finally {
      if (this.creating.get(key) === tail) this.creating.delete(key);
    }
  }

  private async replace(owner: UploadOwner, spec: UploadSpec, key: string): Promise<Upload> {
    const old = await this.find(owner);
    if (old) {
      // A new upload replaces the old one at once, even behind a stalled PATCH of it.
      this.interrupt(old);
      await this.exclusive(old, () => this.abort(old));
    }
    await makeParent(owner.target, spec.dirMode);
    await this.sweep(dirname(owner.target), owner.confines);
    const temp = tempPathOf(owner.target, key, spec.length);
    await translated(async () => (await open(temp, 'wx', spec.fileMode)).close());
    return this.remember({ key, target: owner.target, temp, length: spec.length, gone: false }, owner.confines);
  }

  async exclusive<T>(upload: Upload, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const entry = this.entries.get(upload.key);
    if (entry?.upload !== upload) throw new AppError('not_found');
    entry.busy++;
    const run = entry.chain.then(() => {
      if (upload.gone) throw new AppError('not_found');
      const controller = new AbortController();
      entry.running = controller;
      return fn(controller.signal).finally(() => {
        if (entry.running === controller) entry.running = undefined;
      });
    });
    entry.chain = run.catch(() => undefined);
    try {
      return await run;
    } finally {
      entry.busy--;
      if (!upload.gone) this.arm(entry);
    }
  }

  interrupt(upload: Upload): void {
    const entry = this.entries.get(upload.key);
    if (entry?.upload === upload) entry.running?.abort();
  }

  finish(upload: Upload): void {
    const entry = this.entries.get(upload.key);
    if (entry?.upload === upload) this.forget(entry);
    upload.gone = true;
  }

  async abort(upload: Upload): Promise<void> {
    this.finish(upload);
    await translated(() => rm(upload.temp, { force: true }));
  }

  async sweep(dir: string, confines: Confines): Promise<void> {
    const last = this.swept.get(dir);
    if (last !== undefined && Date.now() - last < this.ttl) return;
    if (this.swept.size > SWEEP_MEMORY) this.swept.clear();
    this.swept.set(dir, Date.now());
    const live = new Set([...this.entries.values()].map((e) => basename(e.upload.temp)));
    for (const temp of await tempsIn(dir)) {
      if (live.has(basename(temp.path)) || Date.now() - temp.mtimeMs <= this.ttl) continue;
      await removeTemp(temp.path, confines);
    }
  }

  close(): void {
    for (const entry of this.entries.values()) clearTimeout(entry.timer);
  }

  private remember(upload: Upload, confines: Confines): Upload {
    const entry: Entry = { upload, confines, busy: 0, chain: Promise.resolve() };
    this.entries.set(upload.key, entry);
    this.arm(entry);
    return upload;
  }

  private arm(entry: Entry): void {
    clearTimeout(entry.timer);
    entry.timer = setTimeout(() => this.expire(entry), this.ttl);
    // A waiting expiry never keeps the process alive.
    entry.timer.unref();
  }

  private forget(entry: Entry): void {
    entry.upload.gone = true;
    clearTimeout(entry.timer);
    if (this.entries.get(entry.upload.key) === entry) this.entries.delete(entry.upload.key);
  }

  /** Silence reached the TTL: only the temporary file goes; a PATCH in progress postpones it. */
  private expire(entry: Entry): void {
    if (entry.busy > 0 || entry.upload.gone) return;
    this.forget(entry);
    const key = entry.upload.key;
    const job = removeTemp(entry.upload.temp, entry.confines)
      .catch((err: unknown) => this.onError(err))
      .finally(() => this.removing.delete(key));
    this.removing.set(key, job);
  }
}

/** Creates the registry of one server. */
export function createUploadRegistry(options: RegistryOptions = {}): UploadRegistry {
  return new Registry(options.ttlMs ?? UPLOAD_TTL_MS, options.onError ?? (() => undefined));
}
