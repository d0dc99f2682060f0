import { AppError } from '../../errors';
import type { GateFactory } from '../../fs/gates';
import { fileInfo } from '../../fs/info';
import { baseName } from '../../fs/paths';
import { readSubtitleAsVtt, subtitleKindOf } from '../../media/subtitles';
import type { UserRecord } from '../../state/schema';
import type { Store } from '../../state/store';
import { contentDisposition } from '../../http/content-disposition';
import { serveBytes, statusServed, type RawFileServer, type ServeRequest, type Served } from '../../http/served';

/** What the subtitle route's service needs; app.ts composes it. */
export interface SubtitleRouteDeps {
  store: Store;
  gates: GateFactory;
  /** Serves a .vtt file unchanged. */
  rawFile: RawFileServer;
}

/** GET /api/subtitle{p} as the service reads it. */
export interface SubtitleHttpRequest extends ServeRequest {
  path: string;
  inline: boolean;
}

const VTT = 'text/vtt; charset=utf-8';

/** The headers of §3.13 step 4: disposition as raw, no scripts, private caching, WebVTT. */
function subtitleHeaders(name: string, inline: boolean): Record<string, string | string[]> {
  return {
    'content-type': VTT,
    'content-disposition': contentDisposition(name, inline),
    'content-security-policy': "script-src 'none';",
    'x-content-type-options': 'nosniff',
    'cache-control': 'private',
  };
}

/**
 * GET /api/subtitle{p} (api.md §3.13): 202 without download permission, 400 for a folder, a name
 * that is not a subtitle or content that is not one; WebVTT served as it is, SubRip and SubStation
 * Alpha converted to WebVTT.
 */
export async function subtitleFor(deps: SubtitleRouteDeps, user: UserRecord, req: SubtitleHttpRequest): Promise<Served> {
  if (!user.perm.download) return statusServed(202);
  const gate = await deps.gates.forUser(user, deps.store.data().settings);
  const { info, target, stat } = await fileInfo(gate, req.path, { modify: user.perm.modify, sniff: 'off' });
  if (info.isDir) throw new AppError('bad_request', 'a directory is not a subtitle file');
  if (!subtitleKindOf(info.name)) throw new AppError('bad_request', 'not a subtitle file (.vtt, .srt, .ass, .ssa)');
  const vtt = await readSubtitleAsVtt(target.real);
  if (vtt === null) {
    const raw = await deps.rawFile(gate, { ...req, path: target.path });
    // The raw headers already forbid scripts; only the type changes (an attachment is octet-stream there).
    return raw.status === 200 || raw.status === 206 ? { ...raw, headers: { ...raw.headers, 'content-type': VTT } } : raw;
  }
  const s = stat.effective;
  const etag = `W/"${s.mtimeNs.toString(16)}${s.size.toString(16)}-vtt"`;
  const headers = subtitleHeaders(baseName(target.path), req.inline);
  return serveBytes(Buffer.from(vtt, 'utf8'), req, { mtimeMs: Number(s.mtimeMs), etag, headers });
}

/** The decisions of /api/subtitle; routes.ts only translates HTTP. */
export function createSubtitleRouteService(deps: SubtitleRouteDeps) {
  return {
    /** The subtitle as WebVTT, or a status. */
    get: (user: UserRecord, req: SubtitleHttpRequest) => subtitleFor(deps, user, req),
  };
}

export type SubtitleRouteService = ReturnType<typeof createSubtitleRouteService>;
