import type { ServerConfig } from '../../config';
import { AppError } from '../../errors';
import type { GateFactory } from '../../fs/gates';
import { fileInfo, type EntryStat } from '../../fs/info';
import { baseName } from '../../fs/paths';
import type { PathGate, Target } from '../../fs/scope';
import { isPreviewSize, type PreviewService, type PreviewSize } from '../../media/preview';
import type { UserRecord } from '../../state/schema';
import type { Store } from '../../state/store';
import { contentDisposition } from '../../http/content-disposition';
import { serveBytes, statusServed, type RawFileServer, type ServeRequest, type Served } from '../../http/served';

/** What the preview route's service needs; app.ts composes it. */
export interface PreviewRouteDeps {
  store: Store;
  gates: GateFactory;
  /** `--disableThumbnails` / `--disablePreviewResize` (served as the original file when off). */
  config: Pick<ServerConfig, 'enableThumbnails' | 'resizePreview'>;
  /** Generation, the `--imageProcessors` limit and the `--cacheDir` cache (server/media). */
  previews: PreviewService;
  /** Serves the original file when no preview is made. */
  rawFile: RawFileServer;
}

/** GET /api/preview/{size}{p} as the service reads it. */
export interface PreviewHttpRequest extends ServeRequest {
  size: string;
  /** The user path after the size, as requested. */
  path: string;
  /** Query `inline=true`. */
  inline: boolean;
}

function enabled(config: PreviewRouteDeps['config'], size: PreviewSize): boolean {
  return size === 'thumb' ? config.enableThumbnails : config.resizePreview;
}

/** The weak tag of one preview of one version of a file. */
function previewEtag(s: EntryStat, size: PreviewSize): string {
  return `W/"${s.effective.mtimeNs.toString(16)}${s.effective.size.toString(16)}-${size}"`;
}

interface Source {
  gate: PathGate;
  target: Target;
  stat: EntryStat;
}

async function previewOf(deps: PreviewRouteDeps, src: Source, req: PreviewHttpRequest & { size: PreviewSize }): Promise<Served> {
  const effective = src.stat.effective;
  const stamp = { mtimeMs: Number(effective.mtimeMs), size: Number(effective.size) };
  // The lexical path is the cache key the resources routes invalidate (api.md §1.4: one canonical form).
  const preview = await deps.previews.preview({ realPath: src.target.lexical, size: req.size, stat: stamp });
  if (!preview) return deps.rawFile(src.gate, { ...req, path: src.target.path });
  const headers = {
    'content-type': preview.contentType,
    'content-disposition': contentDisposition(baseName(src.target.path), req.inline),
    'cache-control': 'private',
    'x-content-type-options': 'nosniff',
  };
  return serveBytes(preview.body, req, { mtimeMs: stamp.mtimeMs, etag: previewEtag(src.stat, req.size), headers });
}

/**
 * GET /api/preview/{thumb|big}{p} (api.md §3.12): 202 without download permission, 400 for another
 * size, 501 for anything but an image (folders included), the original file when that size is
 * disabled or has no generated preview, else the preview (413 past 10000x10000, 415 undecodable).
 */
export async function previewFor(deps: PreviewRouteDeps, user: UserRecord, req: PreviewHttpRequest): Promise<Served> {
  if (!user.perm.download) return statusServed(202);
  const size = req.size;
  if (!isPreviewSize(size)) throw new AppError('bad_request', `${size} is not a valid PreviewSize, try [thumb, big]`);
  const gate = await deps.gates.forUser(user, deps.store.data().settings);
  const { info, target, stat } = await fileInfo(gate, req.path, { modify: user.perm.modify, sniff: 'full' });
  if (info.type !== 'image') throw new AppError('not_implemented');
  if (!enabled(deps.config, size)) return deps.rawFile(gate, { ...req, path: target.path });
  return previewOf(deps, { gate, target, stat }, { ...req, size });
}

/** The decisions of /api/preview; routes.ts only translates HTTP. */
export function createPreviewRouteService(deps: PreviewRouteDeps) {
  return {
    /** A preview, the original file, or a status. */
    get: (user: UserRecord, req: PreviewHttpRequest) => previewFor(deps, user, req),
  };
}

export type PreviewRouteService = ReturnType<typeof createPreviewRouteService>;
