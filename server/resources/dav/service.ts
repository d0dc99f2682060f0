import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { AppError } from '../../errors';
import type { BasicAuth } from './auth';
import type { DavCtx, DavDeps, DavReply } from './context';
import { getResource } from './get';
import { requestPath } from './href';
import { propfind } from './propfind';
import { proppatch } from './proppatch';
import { putResource } from './put';
import { copyResource, moveResource } from './copy-move';
import { lockResource, unlockResource } from './lock';
import { deleteResource, mkcol } from './write-ops';

/** The methods of RFC 4918 class 1 and 2 this server answers. */
export const DAV_METHODS = ['OPTIONS', 'GET', 'HEAD', 'PUT', 'DELETE', 'PROPFIND', 'PROPPATCH', 'MKCOL', 'COPY', 'MOVE', 'LOCK', 'UNLOCK'] as const;

/** Methods Fastify has to be taught (the rest it knows). */
export const EXTRA_METHODS = ['PROPFIND', 'PROPPATCH', 'MKCOL', 'COPY', 'MOVE', 'LOCK', 'UNLOCK'] as const;

const ALLOW = DAV_METHODS.join(', ');

type Handler = (ctx: DavCtx) => Promise<DavReply>;

const HANDLERS: Readonly<Record<string, Handler>> = {
  GET: getResource,
  HEAD: getResource,
  PUT: putResource,
  DELETE: deleteResource,
  PROPFIND: propfind,
  PROPPATCH: proppatch,
  MKCOL: mkcol,
  COPY: copyResource,
  MOVE: moveResource,
  LOCK: lockResource,
  UNLOCK: unlockResource,
};

/** An incoming request as the routes hand it over. */
export interface IncomingDav {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Readable;
  address: string;
}

export interface DavServiceDeps extends DavDeps {
  auth: BasicAuth;
  /** --disableWebDAV: every /dav/ request answers 404. */
  disabled: boolean;
}

/** OPTIONS: answered without credentials (Windows gives up after a 401 here). */
function options(): DavReply {
  return { status: 200, headers: { dav: '1, 2', allow: ALLOW, 'ms-author-via': 'DAV', 'accept-ranges': 'bytes', 'content-length': '0' } };
}

/** The WebDAV server of beyond.md §1 at `<baseURL>/dav/`: the signed-in user's scope. */
export function createDavService(deps: DavServiceDeps) {
  return {
    async handle(incoming: IncomingDav): Promise<DavReply> {
      if (deps.disabled) throw new AppError('not_found');
      const path = requestPath(incoming.url);
      if (incoming.method === 'OPTIONS') return options();
      const handler = HANDLERS[incoming.method];
      if (!handler) throw new AppError('method_not_allowed', undefined, { allow: ALLOW });
      const header = (name: string): string | undefined => {
        const v = incoming.headers[name.toLowerCase()];
        return Array.isArray(v) ? v[0] : v;
      };
      const user = await deps.auth.userOf({ authorization: header('authorization'), address: incoming.address, header });
      const gate = await deps.gates.forUser(user, deps.store.data().settings);
      return handler({ deps, req: { user, gate, path, method: incoming.method, headers: incoming.headers, body: incoming.body } });
    },
  };
}

export type DavService = ReturnType<typeof createDavService>;
