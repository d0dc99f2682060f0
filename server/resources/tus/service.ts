import type { Readable } from 'node:stream';
import { AppError } from '../../errors';
import type { GateFactory } from '../../fs/gates';
import { cleanPath } from '../../fs/paths';
import type { PathGate, Target } from '../../fs/scope';
import { checkUploadTarget } from '../../fs/upload-target';
import { hookContext } from '../../hooks/context';
import type { HookRunner } from '../../hooks/hooks';
import { createModes } from '../../state/modes';
import type { UserRecord } from '../../state/schema';
import type { Store } from '../../state/store';
import { appendBody } from '../../tus/append';
import { isOffsetContentType, parseUploadLength, parseUploadOffset } from '../../tus/protocol';
import type { Upload, UploadOwner, UploadRegistry } from '../../tus/registry';
import { appendUnderQuota, checkRoom, type QuotaGate } from '../../quota/admit';
import { renameIntoPlace } from '../../tus/temp-file';

/** What the tus service needs; app.ts composes it. */
export interface TusDeps {
  store: Store;
  gates: GateFactory;
  hooks: HookRunner;
  /** The unfinished uploads (its TTL is injectable for tests). */
  registry: UploadRegistry;
  /** Drops cached previews of a real path when an upload replaces a file (api.md §3.12). */
  previews?: { invalidate(realPath: string): Promise<void> };
  /**
   * Told about what fails after an upload is complete and in place: `upload` hooks (ignored, as
   * upstream does, api.md §9) and preview cache cleanup. Neither fails the upload.
   */
  report?: (err: unknown) => void;
  /** The user's quota (beyond.md §6): creation by Upload-Length, each PATCH by the bytes it brings. */
  quota?: QuotaGate;
}

export interface CreateUploadRequest {
  /** The user path after `/api/tus`, as requested. */
  raw: string;
  override: boolean;
  /** The `Upload-Length` header. */
  length: string | string[] | undefined;
}

export interface AppendRequest {
  raw: string;
  contentType: string | undefined;
  /** The `Upload-Offset` header. */
  offset: string | string[] | undefined;
  /** The declared body size, when the client sent one. */
  contentLength: number | undefined;
  body: Readable;
}

interface Located {
  gate: PathGate;
  target: Target;
  owner: UploadOwner;
}

async function locate(deps: TusDeps, user: UserRecord, raw: string): Promise<Located> {
  const gate = await deps.gates.forUser(user, deps.store.data().settings);
  const target = await gate.resolve(raw, 'write');
  const owner = { userId: user.id, target: target.resolved, confines: (real: string) => gate.confines(real) };
  return { gate, target, owner };
}

async function found(deps: TusDeps, owner: UploadOwner): Promise<Upload> {
  const upload = await deps.registry.find(owner);
  if (!upload) throw new AppError('not_found');
  return upload;
}

/** The last byte is there: into place, previews dropped, then the `upload` hooks (errors ignored). */
async function complete(deps: TusDeps, user: UserRecord, done: { upload: Upload; at: Located }): Promise<void> {
  const { upload, at } = done;
  await renameIntoPlace(upload.temp, upload.target);
  await deps.registry.finish(upload);
  await deps.previews?.invalidate(at.target.lexical).catch((err: unknown) => deps.report?.(err));
  const ctx = hookContext(at.gate, user, { file: at.target });
  await deps.hooks.around('upload', ctx, () => Promise.resolve()).catch((err: unknown) => deps.report?.(err));
}

/** POST: validates, checks the target, starts the upload; a zero-length one is complete at once. */
async function createUpload(deps: TusDeps, user: UserRecord, req: CreateUploadRequest): Promise<void> {
  if (!user.perm.create) throw new AppError('forbidden');
  // Validated before anything on disk is touched (api.md §13 item 11).
  const length = parseUploadLength(req.length);
  const at = await locate(deps, user, req.raw);
  await checkUploadTarget(user, at.target, { raw: req.raw, override: req.override, tus: true });
  await checkRoom(deps.quota, user, { real: at.target.resolved, length });
  const upload = await deps.registry.create(at.owner, { length, ...createModes(deps.store.data().settings) });
  if (length === 0) await deps.registry.exclusive(upload, () => complete(deps, user, { upload, at }));
}

/**
 * HEAD/GET: the offset and declared length of the user's unfinished upload to a path. A running
 * PATCH, stalled perhaps for up to STALL_MS, is never waited for: the offset durable so far answers
 * at once (the file's size whenever no PATCH is writing, as every PATCH ends with an fdatasync).
 */
async function uploadStatus(deps: TusDeps, user: UserRecord, raw: string): Promise<{ offset: number; length: number }> {
  if (!user.perm.create) throw new AppError('forbidden');
  const at = await locate(deps, user, raw);
  const upload = await found(deps, at.owner);
  const offset = await deps.registry.offset(upload);
  if (offset < upload.length) return { offset, length: upload.length };
  // Every byte there but not yet in place: a restart came between the last write and the rename.
  return deps.registry.exclusive(upload, async () => {
    await complete(deps, user, { upload, at });
    return { offset, length: upload.length };
  });
}

/** PATCH: appends the body at the stated offset (§3.17 steps 1-8); returns the new offset and the declared length. */
async function appendUpload(deps: TusDeps, user: UserRecord, req: AppendRequest): Promise<{ offset: number; length: number }> {
  if (!user.perm.create) throw new AppError('forbidden');
  const at = await locate(deps, user, req.raw);
  if (!isOffsetContentType(req.contentType)) throw new AppError('unsupported_media_type');
  const offset = parseUploadOffset(req.offset);
  const upload = await found(deps, at.owner);
  return deps.registry.exclusive(upload, async (signal) => {
    if (offset > upload.length) throw new AppError('bad_request', `upload offset ${offset} exceeds declared length ${upload.length}`);
    const watch = (durable: () => number): void => deps.registry.writing(upload, durable);
    const spec = { offset, room: upload.length - offset, signal, watch, ...(req.contentLength === undefined ? {} : { declared: req.contentLength }) };
    const reach = { user, real: at.target.resolved, reach: offset + Math.min(req.contentLength ?? Infinity, upload.length - offset) };
    const written = await appendUnderQuota(deps.quota, reach, () => appendBody(upload.temp, spec, req.body).finally(() => deps.registry.writing(upload, undefined)));
    const reached = offset + written;
    if (reached === upload.length) await complete(deps, user, { upload, at });
    return { offset: reached, length: upload.length };
  });
}

/** DELETE: aborts the user's unfinished upload; a file it would have replaced stays as it was. */
async function abortUpload(deps: TusDeps, user: UserRecord, raw: string): Promise<void> {
  if (cleanPath(raw) === '/' || !user.perm.delete) throw new AppError('forbidden');
  const at = await locate(deps, user, raw);
  const upload = await found(deps, at.owner);
  // A PATCH of the upload still streaming (or stalled, for up to STALL_MS) ends now, not after.
  deps.registry.interrupt(upload);
  await deps.registry.exclusive(upload, () => deps.registry.abort(upload));
}

/** The decisions of /api/tus (api.md §3.17 with the §14 changes); routes.ts only translates HTTP. */
export function createTusService(deps: TusDeps) {
  return {
    /** POST: starts an upload (201 by the route). */
    create: (user: UserRecord, req: CreateUploadRequest) => createUpload(deps, user, req),
    /** HEAD/GET: offset and length. */
    status: (user: UserRecord, raw: string) => uploadStatus(deps, user, raw),
    /** PATCH: the new offset and the declared length (equal: the upload is complete). */
    append: (user: UserRecord, req: AppendRequest) => appendUpload(deps, user, req),
    /** DELETE: aborts. */
    abort: (user: UserRecord, raw: string) => abortUpload(deps, user, raw),
  };
}

export type TusService = ReturnType<typeof createTusService>;
