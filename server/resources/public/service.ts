import type { ServerConfig } from '../../config';
import type { Resource } from '../../contract/resource';
import type { UploadLinkInfo } from '../../contract/share';
import { AppError } from '../../errors';
import { fileInfo } from '../../fs/info';
import { listDirectory } from '../../fs/listing';
import { baseName, parentPath } from '../../fs/paths';
import type { PathGate } from '../../fs/scope';
import { subtitleFinder } from '../../fs/subtitles';
import type { RawRequest } from '../../http/raw-request';
import type { RawResponse } from '../../http/send-file';
import { openShare, type AccessDeps, type OpenShare, type PublicRequest } from './access';
import { checkNotExhausted, countDownload, type DownloadLimitDeps } from './download-limit';

export type { PublicRequest } from './access';

/** The raw download service's gate-agnostic entry point (files, pipes and folder archives). */
export interface RawServer {
  serve(gate: PathGate, req: RawRequest): Promise<RawResponse>;
}

/** What public access needs; app.ts composes it. */
export interface PublicDeps extends AccessDeps, DownloadLimitDeps {
  config: Pick<ServerConfig, 'typeDetectionByHeader'>;
  raw: RawServer;
}

/** Public share access of api.md §3.16: no JWT, the link's password or token instead. */
export interface PublicService {
  /**
   * GET /api/public/share/{hash}{sub}: the FileInfo of the shared file or of a folder in the share;
   * of an upload link only its folder's name (beyond.md §2).
   */
  info(req: PublicRequest): Promise<Resource | UploadLinkInfo>;
  /** GET /api/public/dl/{hash}{sub}: the file (raw headers, Range, ETag) or a folder archive. */
  download(req: PublicRequest, raw: Omit<RawRequest, 'path'>): Promise<RawResponse>;
}

/** Public listings are always sorted by name, folders first, A to Z (api.md §3.16, §5.6). */
const PUBLIC_SORTING = { by: 'name', asc: false } as const;

async function folderInfo(deps: PublicDeps, open: OpenShare, info: Resource): Promise<Resource> {
  const target = await open.gate.resolve(open.path);
  const sniff = deps.config.typeDetectionByHeader ? 'unknown' : 'off';
  const listing = await listDirectory(open.gate, target, { modify: open.owner.perm.modify, sniff, sorting: PUBLIC_SORTING });
  // The share's root would have no name (a gate root's is ''): it is named after the link.
  const name = info.path === '/' ? open.name : info.name;
  return { ...listing, sorting: { ...PUBLIC_SORTING }, ...info, name };
}

async function withSubtitles(open: OpenShare, info: Resource): Promise<Resource> {
  // Only inside a folder share: a file share must not reveal the names of its siblings.
  if (info.type !== 'video' || !open.isDir) return info;
  const parent = await open.gate.resolve(parentPath(info.path));
  const subs = await subtitleFinder(open.gate, parent).forVideo(baseName(info.path));
  return subs.length > 0 ? { ...info, subtitles: subs } : info;
}

/** An upload link shows its folder's name, never what is in it (beyond.md §2). */
function uploadLinkInfo(open: OpenShare): UploadLinkInfo {
  const token = open.link.password_hash && open.link.token ? { token: open.link.token } : {};
  return { kind: 'upload', name: open.name, expire: open.link.expire, hasPassword: Boolean(open.link.password_hash), ...token };
}

async function describeShare(deps: PublicDeps, req: PublicRequest): Promise<Resource | UploadLinkInfo> {
  const open = await openShare(deps, req);
  if (open.link.kind === 'upload') return uploadLinkInfo(open);
  // A link that gave all its downloads is gone, its page included (beyond.md §2).
  checkNotExhausted(open.link);
  const { info } = await fileInfo(open.gate, open.path, { modify: open.owner.perm.modify, sniff: 'full' });
  // The token goes only to visitors who passed the password, on the top-level object (§3.16).
  const token = open.link.password_hash && open.link.token ? { token: open.link.token } : {};
  if (info.isDir) return { ...(await folderInfo(deps, open, info)), ...token };
  // Paths are relative to the share; a file share's own path is '' (api.md §3.16 step 6).
  const file = open.isDir ? await withSubtitles(open, info) : { ...info, path: '' };
  return { ...file, ...token };
}

/** Creates the public access service. */
export function createPublicService(deps: PublicDeps): PublicService {
  return {
    info: (req) => describeShare(deps, req),
    async download(req, raw) {
      const open = await openShare(deps, req);
      if (open.link.kind === 'upload') throw new AppError('forbidden');
      checkNotExhausted(open.link);
      const res = await deps.raw.serve(open.gate, { ...raw, path: open.path });
      return countDownload(deps, { link: open.link, path: open.path, address: req.address, method: raw.method }, res);
    },
  };
}
