import { basename } from 'node:path';
import { translated } from '../fs/fs-error';
import { createPreviewCache, type PreviewCache, type SourceStamp } from './disk-cache';
import { decodeBmp } from './bmp';
import { readJpegExif, readJpegHead } from './exif';
import { imageKindOf, previewFormat, PREVIEW_SIZES, type PreviewSize } from './preview-plan';
import { orientJpeg, renderImage, type RenderSpec } from './render';
import { createSemaphore, type Semaphore } from './semaphore';

export { PREVIEW_SIZES, isPreviewSize, previewFormat, imageKindOf, type PreviewSize } from './preview-plan';
export { renderImage, type ImageSource, type RenderSpec, type OutputFormat } from './render';

/** Settings of the preview service; sizes are parameters so tests and benchmarks can shrink them. */
export interface PreviewOptions {
  /** Decodes running at once (`--imageProcessors`); the rest wait in arrival order. */
  processors: number;
  /** `--cacheDir`: previews are kept there when set, regenerated on every request when not. */
  cacheDir?: string;
  /** Side of the square `thumb` (cover-cropped). */
  thumbSize?: number;
  /** Side of the box `big` fits in. */
  bigSize?: number;
  /** Width or height above this answers 413. */
  maxDimension?: number;
  /** Seconds one encode may take. */
  timeoutSeconds?: number;
  /** Told about cache read/write failures, which never fail a preview. */
  onCacheError?: (err: unknown) => void;
}

/** The defaults of api.md §12. */
export const PREVIEW_DEFAULTS = {
  processors: 4,
  thumbSize: 256,
  bigSize: 1080,
  maxDimension: 10_000,
  timeoutSeconds: 30,
} as const;

/** One preview request: the real path (already through the path gate) and its current stat. */
export interface PreviewRequest {
  realPath: string;
  size: PreviewSize;
  stat: SourceStamp;
}

/** A preview ready to send; `contentType` is that of these bytes, whatever the file's name. */
export interface Preview {
  body: Buffer;
  contentType: string;
  /** Where it came from: the disk cache, the JPEG's own EXIF thumbnail, or a fresh encode. */
  origin: 'cache' | 'embedded' | 'generated';
}

export interface PreviewService {
  /**
   * The preview of an image file, or null when the original file should be served unchanged (an
   * extension with no generated preview, or a BMP variant only browsers decode). Throws AppError
   * too_large (413) past the size limit, unsupported_media_type (415) for an undecodable file.
   */
  preview(request: PreviewRequest): Promise<Preview | null>;
  /** Drops the cached previews of a path at every size; call on overwrite, rename and delete. */
  invalidate(realPath: string): Promise<void>;
  /** The decode limiter, for observing load. */
  readonly semaphore: Semaphore;
}

type Settings = Required<Omit<PreviewOptions, 'cacheDir' | 'onCacheError'>>;

/** Returns the preview service (api.md §3.12): generation, the worker limit and the disk cache. */
export function createPreviewService(options: PreviewOptions): PreviewService {
  const settings: Settings = {
    processors: options.processors,
    thumbSize: options.thumbSize ?? PREVIEW_DEFAULTS.thumbSize,
    bigSize: options.bigSize ?? PREVIEW_DEFAULTS.bigSize,
    maxDimension: options.maxDimension ?? PREVIEW_DEFAULTS.maxDimension,
    timeoutSeconds: options.timeoutSeconds ?? PREVIEW_DEFAULTS.timeoutSeconds,
  };
  const semaphore = createSemaphore(settings.processors);
  const cache = options.cacheDir ? createPreviewCache(options.cacheDir, PREVIEW_SIZES) : undefined;
  const onCacheError = options.onCacheError;
  // A cache failure is reported and otherwise ignored: the preview is generated or sent anyway.
  const reportCacheError = (err: unknown): undefined => void onCacheError?.(err);
  // Two requests for the same preview of the same file version share one decode.
  const inFlight = new Map<string, Promise<Preview | null>>();

  const produce = async (request: PreviewRequest): Promise<Preview | null> => {
    const cached = cache && (await readCache(cache, request).catch(reportCacheError));
    if (cached) return cached;
    const fresh = await semaphore.run(() => translated(() => generate(request, settings)));
    if (fresh && cache) {
      const entry = { body: fresh.body, contentType: fresh.contentType, stamp: request.stat };
      await cache.put(request.realPath, request.size, entry).catch(reportCacheError);
    }
    return fresh;
  };

  return {
    semaphore,
    async preview(request) {
      // Decided by name alone: no cache lookup and no decode slot for files served as they are.
      if (!previewFormat(basename(request.realPath), request.size)) return null;
      const key = [request.realPath, request.size, request.stat.mtimeMs, request.stat.size].join('\0');
      const running = inFlight.get(key);
      if (running) return running;
      const job = produce(request).finally(() => inFlight.delete(key));
      inFlight.set(key, job);
      return job;
    },
    async invalidate(realPath) {
      await cache?.invalidate(realPath);
    },
  };
}

async function readCache(cache: PreviewCache, request: PreviewRequest): Promise<Preview | undefined> {
  const hit = await cache.get(request.realPath, request.size, request.stat);
  return hit && { ...hit, origin: 'cache' };
}

/** Renders one preview; runs inside a semaphore slot. */
async function generate(request: PreviewRequest, settings: Settings): Promise<Preview | null> {
  const name = basename(request.realPath);
  const format = previewFormat(name, request.size);
  if (!format) return null;
  const kind = imageKindOf(name);
  if (request.size === 'thumb' && kind === 'jpeg') {
    const embedded = await embeddedThumbnail(request.realPath, settings.timeoutSeconds);
    if (embedded) return { body: embedded, contentType: 'image/jpeg', origin: 'embedded' };
  }
  const box = request.size === 'thumb' ? settings.thumbSize : settings.bigSize;
  const spec: RenderSpec = {
    fit: request.size === 'thumb' ? 'cover' : 'inside',
    width: box,
    height: box,
    format,
    maxDimension: settings.maxDimension,
    timeoutSeconds: settings.timeoutSeconds,
  };
  if (kind === 'bmp') {
    const image = await decodeBmp(request.realPath, settings.maxDimension);
    if (!image) return null;
    const rendered = await renderImage({ kind: 'raw', image }, spec);
    return { body: rendered.data, contentType: rendered.contentType, origin: 'generated' };
  }
  const rendered = await renderImage({ kind: 'file', path: request.realPath }, spec);
  return { body: rendered.data, contentType: rendered.contentType, origin: 'generated' };
}

/**
 * The JPEG's EXIF (IFD1) thumbnail: as stored when the photo needs no rotation, else turned the
 * way the photo is (the small image carries no orientation tag, so browsers would show it sideways).
 */
async function embeddedThumbnail(realPath: string, timeoutSeconds: number): Promise<Buffer | undefined> {
  const { thumbnail, orientation } = readJpegExif(await readJpegHead(realPath));
  if (!thumbnail) return undefined;
  if (orientation === undefined || orientation === 1) return thumbnail;
  // A thumbnail too broken to turn is skipped: the photo itself may still decode.
  return orientJpeg(thumbnail, orientation, timeoutSeconds).catch(() => undefined);
}
