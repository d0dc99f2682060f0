import { AppError } from '../../errors';
import type { GateFactory } from '../../fs/gates';
import { statTarget } from '../../fs/info';
import { baseName } from '../../fs/paths';
import type { PathGate, Target } from '../../fs/scope';
import { statusBody, statusBodyHeaders } from '../../lib/status-body';
import type { UserRecord } from '../../state/schema';
import type { Store } from '../../state/store';
import { archiveResponse } from './archive-download';
import { contentDisposition } from '../../http/content-disposition';
import { openRegular } from './disk';
import type { RawRequest } from '../../http/raw-request';
import { serveFile, type RawResponse } from '../../http/send-file';

export interface RawServiceDeps {
  gates: GateFactory;
  store: Store;
  /** The archive compression worker's code (the embedded asset in the executable). */
  workerSource?: () => Promise<string>;
}

export interface RawService {
  /** GET /api/raw{p} (api.md §3.11): 202 without download permission, else `serve` in the user's gate. */
  forUser(user: UserRecord, req: RawRequest): Promise<RawResponse>;
  /** Serves a file, a named pipe or a directory archive through any gate (user or public share). */
  serve(gate: PathGate, req: RawRequest): Promise<RawResponse>;
}

/**
 * The download headers of a file (api.md §3.11, §11, §14): the disposition, a CSP that forbids
 * scripts (and sandboxes an inline document, so a user's HTML or SVG never runs in the app's
 * origin), nosniff, private caching; an attachment is always application/octet-stream. The
 * route adds the global CSP in front of these.
 */
function downloadHeaders(name: string, inline: boolean): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {
    'content-disposition': contentDisposition(name, inline),
    'content-security-policy': inline ? ["script-src 'none';", 'sandbox'] : ["script-src 'none';"],
    'x-content-type-options': 'nosniff',
    'cache-control': 'private',
  };
  if (!inline) headers['content-type'] = 'application/octet-stream';
  return headers;
}

/** A named pipe (or another special file) is never opened: only its disposition is sent. */
function specialFile(name: string, inline: boolean): RawResponse {
  return { status: 200, headers: { 'content-disposition': contentDisposition(name, inline) } };
}

async function fileResponse(target: Target, isSymlink: boolean, req: RawRequest): Promise<RawResponse> {
  const name = baseName(target.path);
  const inline = req.query.inline === 'true';
  const opened = await openRegular(target, isSymlink);
  if (opened === undefined) return specialFile(name, inline);
  return serveFile({ name, ...opened }, { method: req.method, headers: req.headers, inline }, downloadHeaders(name, inline));
}

/** Creates the raw download service. */
export function createRawService(deps: RawServiceDeps): RawService {
  const serve = async (gate: PathGate, req: RawRequest): Promise<RawResponse> => {
    const target = await gate.resolve(req.path);
    const s = await statTarget(target);
    if (s.dangling) throw new AppError('not_found');
    if (s.effective.isDirectory()) {
      const archiveReq = { files: req.query.files, algo: req.query.algo, head: req.method === 'HEAD', signal: req.signal, onSkip: req.onSkip };
      return archiveResponse({ gate, workerSource: deps.workerSource }, target, archiveReq);
    }
    if (!s.effective.isFile()) return specialFile(baseName(target.path), req.query.inline === 'true');
    return fileResponse(target, s.isSymlink, req);
  };
  return {
    serve,
    async forUser(user, req) {
      if (!user.perm.download) return { status: 202, headers: { ...statusBodyHeaders }, body: statusBody(202) };
      return serve(await deps.gates.forUser(user, deps.store.data().settings), req);
    },
  };
}
