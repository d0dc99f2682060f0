import { randomBytes } from 'node:crypto';
import type { BigIntStats } from 'node:fs';
import type { Readable } from 'node:stream';
import type { UploadedFile } from '../../contract/share';
import { AppError } from '../../errors';
import { baseName, joinPath } from '../../fs/paths';
import { placeIfFree, writeTemp } from '../../fs/place-new';
import { discardFile, lstatOrNull } from '../../fs/write';
import type { Target } from '../../fs/scope';
import { hookContext } from '../../hooks/context';
import { createModes } from '../../state/modes';
import { appendBody } from '../../tus/append';
import { isOffsetContentType, parseUploadLength, parseUploadOffset } from '../../tus/protocol';
import type { Upload, UploadOwner } from '../../tus/registry';
import type { ShareCredentials } from './credentials';
import { appendUnderQuota, writeUnderQuota } from '../../quota/admit';
import { admitUpload, openUploadLink, releaseName, renewReservation, reserveName, type OpenUploadLink, type UploadLinkDeps } from './upload-admit';
import { splitUploadPath } from './upload-name';

/**
 * Uploads through an upload link (beyond.md §2): a raw POST of one file, or tus (api.md §3.17)
 * whose follow-up requests carry the upload's secret id. Every file is admitted first
 * (upload-admit.ts), written to a temporary file and given a free name, never replacing
 * anything; the owner's hooks run around it and the link counts it.
 */

/** A request through an upload link: `{hash}/{name}` after the route prefix, and the credentials. */
export interface UploadLinkRequest extends ShareCredentials {
  path: string;
}

/** POST /api/public/upload/{hash}/{name}: the raw body is the file. */
export interface RawUploadRequest extends UploadLinkRequest {
  body: Readable;
  contentLength: number | undefined;
}

/** A follow-up request of a tus upload: its id (the `upload` query parameter of its Location). */
export interface TusFollowUp extends UploadLinkRequest {
  uploadId: string | undefined;
}

export interface TusAppend extends TusFollowUp {
  contentType: string | undefined;
  offset: string | string[] | undefined;
  contentLength: number | undefined;
  body: Readable;
}

/** A created tus upload: the name it will be stored under, and what its Location is made of. */
export interface CreatedTusUpload extends UploadedFile {
  hash: string;
  uploadId: string;
}

const UPLOAD_ID = /^[A-Za-z0-9_-]{22}$/u;

function modesOf(deps: UploadLinkDeps) {
  return createModes(deps.store.data().settings);
}

/**
 * Gives a complete temporary file its reserved name, or (something took that name meanwhile, from
 * outside filemgr) the next free one; answers where it went. No reservation is left behind.
 */
async function placeTemp(deps: UploadLinkDeps, open: OpenUploadLink, p: { temp: string; target: Target }): Promise<Target> {
  let target = p.target;
  try {
    while (!(await placeIfFree(p.temp, target.real))) {
      await releaseName(deps, target);
      target = await reserveName(deps, open.gate, baseName(p.target.path));
    }
    return target;
  } finally {
    await releaseName(deps, target);
  }
}

/** POST /api/public/upload/{hash}/{name}: 201 with the name the file was stored under. */
async function rawUpload(deps: UploadLinkDeps, req: RawUploadRequest): Promise<UploadedFile> {
  const { hash, name } = splitUploadPath(req.path);
  const open = await openUploadLink(deps, { ...req, hash });
  const target = await admitUpload(deps, open, { name, address: req.address, length: req.contentLength });
  let written: { target: Target; stat: BigIntStats } | undefined;
  const write = async (): Promise<Target> => {
    const under = { user: open.owner, real: '', length: req.contentLength ?? null, body: req.body };
    // Held until the file is in place (and so in the usage), not only until its bytes are written.
    const placed = await writeUnderQuota(deps.quota, under, async (body) => placeTemp(deps, open, { temp: await writeTemp(target.real, body, modesOf(deps)), target }));
    const stat = await lstatOrNull(placed.real);
    if (stat) written = { target: placed, stat };
    return placed;
  };
  try {
    const placed = await deps.hooks.around('upload', hookContext(open.gate, open.owner, { file: target }), write);
    await deps.counters.countUpload(hash);
    return { name: baseName(placed.path) };
  } catch (err) {
    // As for the owner's own uploads (api.md §3.6 step 5): a file whose after-hook failed is removed.
    if (written) await discardFile(written.target, written.stat);
    throw err;
  } finally {
    await releaseName(deps, target);
  }
}

function ownerOf(open: OpenUploadLink, target: Target, tag: string): UploadOwner {
  return { userId: open.owner.id, target: target.real, confines: (real) => open.gate.confines(real), tag };
}

/** tus POST through an upload link: admits the file and starts its upload (201 by the route). */
async function createTus(deps: UploadLinkDeps, req: UploadLinkRequest & { length: string | string[] | undefined }): Promise<CreatedTusUpload> {
  // Validated before anything is reserved or touched (api.md §13 item 11).
  const length = parseUploadLength(req.length);
  const { hash, name } = splitUploadPath(req.path);
  const open = await openUploadLink(deps, { ...req, hash });
  const target = await admitUpload(deps, open, { name, address: req.address, length });
  const uploadId = randomBytes(16).toString('base64url');
  try {
    const upload = await deps.registry.create(ownerOf(open, target, uploadId), { length, ...modesOf(deps) });
    if (length > 0) return { name: baseName(target.path), hash, uploadId };
    const placed = await deps.registry.exclusive(upload, () => completeTus(deps, { open, target, upload }));
    return { name: placed, hash, uploadId };
  } catch (err) {
    await releaseName(deps, target);
    throw err;
  }
}

interface Located {
  open: OpenUploadLink;
  target: Target;
  owner: UploadOwner;
}

/** The upload a follow-up request names: an unknown id, like a finished upload, is 404. */
async function locate(deps: UploadLinkDeps, req: TusFollowUp): Promise<Located & { upload: Upload }> {
  const { hash, name } = splitUploadPath(req.path);
  const id = req.uploadId;
  if (id === undefined || !UPLOAD_ID.test(id)) throw new AppError('not_found');
  const open = await openUploadLink(deps, { ...req, hash, byUploadId: true });
  const target = await open.gate.resolve(joinPath('/', name), 'write');
  const owner = ownerOf(open, target, id);
  const upload = await deps.registry.find(owner);
  if (!upload) throw new AppError('not_found');
  await renewReservation(deps, target);
  return { open, target, owner, upload };
}

/** The last byte is there: the file gets its name, the link counts it, then the `upload` hooks. */
async function completeTus(deps: UploadLinkDeps, at: { open: OpenUploadLink; target: Target; upload: Upload }): Promise<string> {
  const placed = await placeTemp(deps, at.open, { temp: at.upload.temp, target: at.target });
  await deps.registry.finish(at.upload);
  await deps.counters.countUpload(at.open.hash);
  const ctx = hookContext(at.open.gate, at.open.owner, { file: placed });
  await deps.hooks.around('upload', ctx, () => Promise.resolve()).catch((err: unknown) => deps.report?.(err));
  return baseName(placed.path);
}

/** HEAD: offset and declared length (an upload whose bytes are all there is completed now). */
async function tusStatus(deps: UploadLinkDeps, req: TusFollowUp): Promise<{ offset: number; length: number }> {
  const at = await locate(deps, req);
  const { upload } = at;
  const offset = await deps.registry.offset(upload);
  if (offset < upload.length) return { offset, length: upload.length };
  await deps.registry.exclusive(upload, () => completeTus(deps, at));
  return { offset, length: upload.length };
}

/** PATCH: appends at the stated offset; the new offset, and the stored name once complete. */
async function tusAppend(deps: UploadLinkDeps, req: TusAppend): Promise<{ offset: number; name?: string }> {
  const at = await locate(deps, req);
  if (!isOffsetContentType(req.contentType)) throw new AppError('unsupported_media_type');
  const offset = parseUploadOffset(req.offset);
  const { upload } = at;
  return deps.registry.exclusive(upload, async (signal) => {
    if (offset > upload.length) throw new AppError('bad_request', `upload offset ${offset} exceeds declared length ${upload.length}`);
    const watch = (durable: () => number): void => deps.registry.writing(upload, durable);
    const spec = { offset, room: upload.length - offset, signal, watch, ...(req.contentLength === undefined ? {} : { declared: req.contentLength }) };
    const reach = { user: at.open.owner, real: '', reach: offset + Math.min(req.contentLength ?? Infinity, upload.length - offset) };
    const written = await appendUnderQuota(deps.quota, reach, () => appendBody(upload.temp, spec, req.body).finally(() => deps.registry.writing(upload, undefined)));
    const reached = offset + written;
    if (reached < upload.length) return { offset: reached };
    return { offset: reached, name: await completeTus(deps, at) };
  });
}

/** DELETE: the visitor gives up their upload; its temporary file and its name's reservation go. */
async function tusAbort(deps: UploadLinkDeps, req: TusFollowUp): Promise<void> {
  const at = await locate(deps, req);
  deps.registry.interrupt(at.upload);
  await deps.registry.exclusive(at.upload, () => deps.registry.abort(at.upload));
  await releaseName(deps, at.target);
}

/** Creates the service of uploads through upload links. */
export function createUploadLinkService(deps: UploadLinkDeps) {
  return {
    /** POST /api/public/upload/{hash}/{name}. */
    upload: (req: RawUploadRequest) => rawUpload(deps, req),
    /** tus POST /api/public/tus/{hash}/{name}. */
    create: (req: UploadLinkRequest & { length: string | string[] | undefined }) => createTus(deps, req),
    /** tus HEAD. */
    status: (req: TusFollowUp) => tusStatus(deps, req),
    /** tus PATCH. */
    append: (req: TusAppend) => tusAppend(deps, req),
    /** tus DELETE. */
    abort: (req: TusFollowUp) => tusAbort(deps, req),
  };
}

export type UploadLinkService = ReturnType<typeof createUploadLinkService>;
