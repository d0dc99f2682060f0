import { link, mkdir, open, rm, symlink, type FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { AppError } from '../../errors';
import { BatchedWriter } from '../../fs/batched-writer';
import type { CreateModes } from '../../fs/write';
import { syncDir } from '../../lib/sync-dir';
import { linkDestination, refused } from './entry-names';
import { checkRoom, type ExtractLimits } from './limits';

export type EntryKind = 'file' | 'dir' | 'symlink';

/** Files whose fsync and close may run behind the writing of the next ones. */
const SYNCS_BEHIND = 16;

/**
 * The hidden folder an archive is extracted into before it is moved into place (beyond.md §5):
 * a refused entry or a limit met halfway leaves nothing in the destination. Files are written
 * with `wx`, fsynced and closed before anything moves (the durable write's guarantee); symbolic
 * links are created last, after every file, so no entry is ever written through one.
 */
export class Staging {
  /** Every path the archive creates, with its kind (implicit parent folders included). */
  readonly kinds = new Map<string, EntryKind>();
  readonly #links = new Map<string, string>();
  readonly #dirs = new Set<string>(['']);
  /** Files written so far (a later entry of the same name first removes the earlier one). */
  readonly #files = new Set<string>();
  readonly #syncing = new Set<Promise<void>>();
  #syncFailure: { error: unknown } | undefined;
  #entries = 0;
  #written = 0;

  constructor(
    readonly root: string,
    private readonly modes: CreateModes,
    readonly limits: ExtractLimits,
  ) {}

  /** The bytes of file contents written so far. */
  get written(): number {
    return this.#written;
  }

  /** Counts an entry against the entry limit (413 beyond it). */
  count(): void {
    if (++this.#entries > this.limits.maxEntries) throw new AppError('too_large', `more than ${this.limits.maxEntries} entries`);
  }

  /** Records `rel` as `kind`, its parents as folders; a clash of kinds refuses the entry. */
  claim(rel: string, kind: EntryKind, name: string): void {
    const parts = rel.split('/');
    for (let i = 1; i < parts.length; i++) this.#claimOne(parts.slice(0, i).join('/'), 'dir', name);
    this.#claimOne(rel, kind, name);
  }

  #claimOne(rel: string, kind: EntryKind, name: string): void {
    const had = this.kinds.get(rel);
    if (had !== undefined && (had === 'dir') !== (kind === 'dir')) throw refused(name, `it clashes with another entry at ${rel}`);
    this.kinds.set(rel, kind);
  }

  async dir(rel: string): Promise<void> {
    if (rel === '' || this.#dirs.has(rel)) return;
    await mkdir(join(this.root, rel), { recursive: true, mode: this.modes.dirMode });
    for (let p = rel; p !== '.' && p !== ''; p = dirname(p)) this.#dirs.add(p);
  }

  /**
   * Writes one file (a later entry of the same name replaces an earlier one, as tar does). Its
   * fsync and close run behind (settle() waits for them): the next file is written meanwhile,
   * and fsyncs in flight together share the filesystem's journal commits.
   */
  async file(rel: string, body: AsyncIterable<Buffer>): Promise<void> {
    await this.dir(dirname(rel) === '.' ? '' : dirname(rel));
    const path = join(this.root, rel);
    this.#links.delete(rel);
    if (this.#files.has(rel)) await rm(path, { force: true });
    this.#files.add(rel);
    const fh = await open(path, 'wx', this.modes.fileMode);
    try {
      const writer = new BatchedWriter(fh, 0);
      try {
        for await (const chunk of this.#counted(body)) await writer.add(chunk);
      } finally {
        writer.flush();
        await writer.settle();
      }
    } catch (err) {
      await fh.close();
      throw err;
    }
    await this.#syncBehind(fh);
  }

  /** Starts the file's fsync and close once fewer than SYNCS_BEHIND are in flight. */
  async #syncBehind(fh: FileHandle): Promise<void> {
    while (this.#syncing.size >= SYNCS_BEHIND) await Promise.race(this.#syncing);
    const done: Promise<void> = fh
      .sync()
      .finally(() => fh.close())
      .catch((err: unknown) => {
        this.#syncFailure ??= { error: err };
      })
      .finally(() => this.#syncing.delete(done));
    this.#syncing.add(done);
  }

  /** Waits for every file's fsync and close; throws the first failure. */
  async settle(): Promise<void> {
    while (this.#syncing.size > 0) await Promise.all(this.#syncing);
    if (this.#syncFailure !== undefined) throw this.#syncFailure.error;
  }

  async *#counted(body: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
    for await (const chunk of body) {
      this.#written += chunk.length;
      if (this.#written > this.limits.maxBytes) throw new AppError('too_large', 'the archive expands more than 1000 times its size');
      checkRoom(this.#written, this.limits.room);
      yield chunk;
    }
  }

  /** A hard link to a file the archive already wrote (never to anything outside it). */
  async hardlink(rel: string, target: string, name: string): Promise<void> {
    if (this.kinds.get(target) !== 'file') throw refused(name, 'it is a hard link to no file of the archive');
    await this.dir(dirname(rel) === '.' ? '' : dirname(rel));
    this.#links.delete(rel);
    await rm(join(this.root, rel), { force: true });
    this.#files.add(rel);
    await link(join(this.root, target), join(this.root, rel));
  }

  /** Records a symbolic link; it is checked and created by finish(). */
  symlink(rel: string, target: string): void {
    this.#links.set(rel, target);
  }

  /** Refuses any link leading out of the destination (through the archive's other links too). */
  checkLinks(names: ReadonlyMap<string, string>): void {
    for (const [rel, target] of this.#links) {
      if (linkDestination(rel, target, this.#links) === null) throw refused(names.get(rel) ?? rel, `its link target ${target} leaves the destination`);
    }
  }

  /** Waits for the files' fsyncs, creates the links, then fsyncs every folder written, deepest first. */
  async finish(names: ReadonlyMap<string, string>): Promise<void> {
    await this.settle();
    this.checkLinks(names);
    for (const [rel, target] of this.#links) {
      await this.dir(dirname(rel) === '.' ? '' : dirname(rel));
      await rm(join(this.root, rel), { force: true });
      await symlink(target, join(this.root, rel));
    }
    const dirs = [...this.#dirs].sort((a, b) => b.length - a.length);
    for (const d of dirs) await syncDir(join(this.root, d));
  }
}
