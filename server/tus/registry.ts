import { open, rm, truncate } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { AppError } from '../errors';
import { translated } from '../fs/fs-error';
import { makeParent } from '../fs/write';
import { UPLOAD_TTL_MS } from './protocol';
import { createMemoryEphemeral, type Ephemeral } from '../state/ephemeral';
import { sizeOf } from './append';
import { newUploadId, SharedUploads, type ProgressPublisher, type UploadRecord } from './shared-uploads';
import { recordOf, removeTemp, type Confines, type Upload, type UploadOwner, type UploadSpec } from './upload';
import { findTemp, keyOfTemp, tempPathOf, tempsIn, uploadKey } from './temp-file';

/**
 * The unfinished tus uploads (api.md §3.17 "upload cache", §14): one per (user, target), each a
 * temporary file beside its target. An upload expires after `ttlMs` without a request (never
 * while a PATCH is streaming) and expiry removes only its temporary file, after checking through
 * the owner's path gate that the folder still lies in their scope. Requests on one upload run one
 * at a time; only a HEAD does not wait for a running PATCH (see `offset`).
 *
 * Several instances (beyond.md §10): which upload is live, its offset while a PATCH runs and the
 * one-request-at-a-time lock are on the shared-ephemeral store (shared-uploads.ts), the bytes in
 * the temporary file on the shared root; what this instance keeps (the Upload objects, expiry
 * timers, the running request's abort) is a cache of its own requests.
 */

export type { Upload, UploadOwner, UploadSpec } from './upload';

export interface RegistryOptions {
  /** Silence after which an upload expires (default 3 minutes, api.md §12). */
  ttlMs?: number;
  /** Told about failed removals of expired temporary files and failed progress reports. */
  onError?: (err: unknown) => void;
  /** Where the shared part lives (beyond.md §10); an in-process store of its own when absent. */
  ephemeral?: Ephemeral;
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
  /**
   * The upload's offset without waiting for a running PATCH: what that PATCH has made durable so
   * far (here, or as another instance last told), else the temporary file's size.
   */
  offset(upload: Upload): Promise<number>;
  /** A PATCH of the upload writes from now on (`durable` tells how far), or no longer (undefined). */
  writing(upload: Upload, durable: (() => number) | undefined): void;
  /** Forgets an upload whose file was moved into place (call inside `exclusive`). */
  finish(upload: Upload): Promise<void>;
  /** Removes an upload's temporary file and forgets it. */
  abort(upload: Upload): Promise<void>;
  /** Removes expired temporary files in a folder left by a crash (at most once per TTL per folder). */
  sweep(dir: string, confines: UploadOwner['confines']): Promise<void>;
  /** Stops every expiry timer (the server is closing; the files stay for a restart). */
  close(): void;
}

interface Entry {
  upload: Upload;
  confines: Confines;
  timer?: NodeJS.Timeout;
  busy: number;
  /** The running request's controller: interrupt aborts it. */
  running?: AbortController;
  progress?: ProgressPublisher;
}

const SWEEP_MEMORY = 10_000;
class Registry implements UploadRegistry {
  private readonly entries = new Map<string, Entry>();
  private readonly removing = new Map<string, Promise<void>>();
  private readonly swept = new Map<string, number>();

  constructor(
    private readonly ttl: number,
    private readonly onError: (err: unknown) => void,
    private readonly shared: SharedUploads,
  ) {}

  async find(owner: UploadOwner): Promise<Upload | undefined> {
    const key = uploadKey(owner.userId, owner.target, owner.tag);
    await this.removing.get(key);
    const record = await this.shared.get(key);
    if (record) return this.known(record, key, owner.confines);
    // Finished, aborted or expired (here or on another instance): what this one kept is stale,
    // unless a request here works on it (its record comes back when that request ends).
    const stale = this.entries.get(key);
    if (stale && stale.busy > 0) return stale.upload;
    if (stale) this.forget(stale);
    return this.shared.creating(key, () => this.restore(owner, key));
  }

  /** The upload of a live record: the same object as long as it stays the live one. */
  private known(record: UploadRecord, key: string, confines: Confines): Upload {
    const local = this.entries.get(key);
    if (local && local.upload.id === record.id) return local.upload;
    if (local) this.forget(local);
    return this.remember({ key, id: record.id, target: record.target, temp: record.temp, length: record.length, gone: false }, confines);
  }

  /** No record: after a restart the temporary file on disk is the upload (its name, its size). */
  private async restore(owner: UploadOwner, key: string): Promise<Upload | undefined> {
    const record = await this.shared.get(key);
    if (record) return this.known(record, key, owner.confines);
    const found = await findTemp(owner.target, key);
    if (!found) return undefined;
    if (Date.now() - Number(found.stat.mtimeMs) > this.ttl) {
      await removeTemp(found.path, owner.confines);
      return undefined;
    }
    const upload = { key, id: newUploadId(), target: owner.target, temp: found.path, length: found.length, gone: false };
    await this.shared.put(key, recordOf(upload));
    return this.remember(upload, owner.confines);
  }

  async create(owner: UploadOwner, spec: UploadSpec): Promise<Upload> {
    // Creations of one upload run one after another (on every instance): each replaces the one
    // before it, and none sees the temporary file of another half made or half removed.
    const key = uploadKey(owner.userId, owner.target, owner.tag);
    const old = await this.find(owner);
    return this.shared.creating(key, () => this.replace(owner, spec, { key, old }));
  }

  private async replace(owner: UploadOwner, spec: UploadSpec, at: { key: string; old: Upload | undefined }): Promise<Upload> {
    const record = await this.shared.get(at.key);
    const old = record ? this.known(record, at.key, owner.confines) : at.old;
    if (old && !old.gone) {
      // A new upload replaces the old one at once, even behind a stalled PATCH of it (here).
      this.interrupt(old);
      await this.exclusive(old, () => this.abort(old)).catch((err: unknown) => {
        if (!(err instanceof AppError && err.code === 'not_found')) throw err;
      });
    }
    await makeParent(owner.target, spec.dirMode);
    await this.sweep(dirname(owner.target), owner.confines);
    const temp = tempPathOf(owner.target, at.key, spec.length);
    await translated(async () => (await open(temp, 'wx', spec.fileMode)).close());
    const upload = { key: at.key, id: newUploadId(), target: owner.target, temp, length: spec.length, gone: false };
    await this.shared.put(at.key, recordOf(upload));
    return this.remember(upload, owner.confines);
  }

  async exclusive<T>(upload: Upload, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const entry = this.entries.get(upload.key);
    if (entry?.upload !== upload) throw new AppError('not_found');
    entry.busy++;
    try {
      return await this.shared.exclusive(upload.key, () => this.alone(entry, fn));
    } finally {
      entry.busy--;
      if (!upload.gone) this.arm(entry);
    }
  }

  /** Holding the upload's lock: still the live upload? Then `fn`, marked as writing meanwhile. */
  private async alone<T>(entry: Entry, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const { upload } = entry;
    const record = await this.shared.get(upload.key);
    if (upload.gone || record?.id !== upload.id) {
      this.forget(entry);
      throw new AppError('not_found');
    }
    // Still marked as writing: its holder died mid-write; bytes past what it made durable go.
    const size = await sizeOf(upload.temp);
    if (record.writing && size > record.writing.durable) await translated(() => truncate(upload.temp, record.writing?.durable));
    await this.shared.put(upload.key, { ...recordOf(upload), writing: { durable: Math.min(size, record.writing?.durable ?? size) } });
    const controller = new AbortController();
    entry.running = controller;
    try {
      return await fn(controller.signal);
    } finally {
      if (entry.running === controller) entry.running = undefined;
      await entry.progress?.stop();
      entry.progress = undefined;
      // Not writing any more; the silence starts now (a finished upload has no record left).
      if (!upload.gone) await this.shared.put(upload.key, recordOf(upload));
    }
  }

  async offset(upload: Upload): Promise<number> {
    if (upload.durable) return upload.durable();
    const record = await this.shared.get(upload.key);
    if (record?.id === upload.id && record.writing) return record.writing.durable;
    return sizeOf(upload.temp);
  }

  writing(upload: Upload, durable: (() => number) | undefined): void {
    upload.durable = durable;
    const entry = this.entries.get(upload.key);
    if (entry?.upload !== upload || !durable) return;
    entry.progress ??= this.shared.progressOf(upload, { stop: () => entry.running?.abort(), onError: this.onError });
    entry.progress.start(durable);
  }

  interrupt(upload: Upload): void {
    const entry = this.entries.get(upload.key);
    if (entry?.upload === upload && entry.running) return entry.running.abort();
    // Running on another instance, perhaps: it looks once a second.
    this.shared.askToInterrupt(upload.key, upload.id).catch(this.onError);
  }

  async finish(upload: Upload): Promise<void> {
    const entry = this.entries.get(upload.key);
    if (entry?.upload === upload) this.forget(entry);
    upload.gone = true;
    await entry?.progress?.stop();
    if ((await this.shared.get(upload.key))?.id === upload.id) await Promise.all([this.shared.delete(upload.key), this.shared.clearInterrupt(upload.key)]);
  }

  async abort(upload: Upload): Promise<void> {
    await this.finish(upload);
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
      // Live on another instance (a PATCH stalled there, say) though silent on disk.
      const key = keyOfTemp(temp.path);
      if (key !== undefined && (await this.shared.get(key))?.temp === temp.path) continue;
      await removeTemp(temp.path, confines);
    }
  }

  close(): void {
    for (const entry of this.entries.values()) {
      clearTimeout(entry.timer);
      void entry.progress?.stop();
    }
  }

  private remember(upload: Upload, confines: Confines): Upload {
    const entry: Entry = { upload, confines, busy: 0 };
    this.entries.set(upload.key, entry);
    this.arm(entry);
    return upload;
  }

  private arm(entry: Entry, ms = this.ttl): void {
    clearTimeout(entry.timer);
    entry.timer = setTimeout(() => void this.expire(entry), ms);
    // A waiting expiry never keeps the process alive.
    entry.timer.unref();
  }

  private forget(entry: Entry): void {
    entry.upload.gone = true;
    clearTimeout(entry.timer);
    if (this.entries.get(entry.upload.key) === entry) this.entries.delete(entry.upload.key);
  }

  /**
   * Silence reached the TTL here: only the temporary file goes, once the shared record lapsed too
   * (another instance may have had requests since: then look again later). A request in progress
   * holds the lock, so expiry waits for it, and it restarts the time.
   */
  private async expire(entry: Entry): Promise<void> {
    if (entry.busy > 0 || entry.upload.gone) return;
    const { upload } = entry;
    const job = this.shared
      .exclusive(upload.key, async () => {
        if (entry.busy > 0 || upload.gone) return;
        const record = await this.shared.get(upload.key);
        if (record?.id === upload.id) return this.arm(entry, Math.max(this.ttl / 4, 1));
        this.forget(entry);
        // Replaced on another instance by an upload of the same key: its file is not ours to remove.
        if (!record) await removeTemp(upload.temp, entry.confines);
      })
      .catch((err: unknown) => this.onError(err))
      .finally(() => {
        if (this.removing.get(upload.key) === job) this.removing.delete(upload.key);
      });
    this.removing.set(upload.key, job);
    await job;
  }
}

/** Creates the registry of one server (its shared part on `options.ephemeral`). */
export function createUploadRegistry(options: RegistryOptions = {}): UploadRegistry {
  const ttl = options.ttlMs ?? UPLOAD_TTL_MS;
  const store = options.ephemeral ?? createMemoryEphemeral({ sweepMs: 0 });
  return new Registry(ttl, options.onError ?? (() => undefined), new SharedUploads(store, ttl));
}
