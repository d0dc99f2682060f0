import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { completeEntry, type ActivityEntry, type ActivityLog } from '../activity/entry';
import { describeRequest, rootPath, type Draft } from '../activity/route-map';
import type { UserRecord } from '../state/schema';
import type { Store } from '../state/store';

/** What a capability tells `recordActivity`; the time, user and address are filled in. */
export interface ActivityInput {
  action: string;
  /** A path as the signed-in user names it (relative to their scope); stored from the server root. */
  path?: string;
  destination?: string;
  bytes?: number;
  /** 'ok' unless said. */
  result?: 'ok' | 'failed';
  status?: number;
  /** The sign-in method, a token's name ... never a secret. */
  detail?: string;
  /** The acting user's name when it is not the signed-in user (a sign-in attempt, an anonymous visitor: ''). */
  user?: string;
}

export interface ActivityPluginOptions {
  log: ActivityLog;
  store: Store;
  /** The client address per `--trustedProxy`. */
  addressOf: (request: FastifyRequest) => string;
  now?: () => number;
}

interface ActivityContext {
  log: ActivityLog;
  addressOf: (request: FastifyRequest) => string;
  now: () => number;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The activity log and how its entries are completed (plugins/activity.ts). */
    activityContext: ActivityContext;
  }
}

// Per request: the draft made before the handler, or RECORDED once a capability recorded itself.
const RECORDED = Symbol('recorded');
const drafts = new WeakMap<FastifyRequest, Draft | typeof RECORDED>();

function signedIn(request: FastifyRequest): UserRecord | undefined {
  // @fastify/jwt declares `user` on every request; it is null until plugins/auth.ts sets it.
  const user: UserRecord | null | undefined = request.user;
  return user ?? undefined;
}

/**
 * Records one activity entry for `request` (beyond.md §8): the call every capability makes for
 * what the route map of the activity plugin does not see (WebDAV, tokens, OIDC, trash, upload
 * links ...). Paths are the signed-in user's; the user, the client address and the time are
 * filled in. The plugin then records nothing more for this request. Appending never waits.
 */
export function recordActivity(request: FastifyRequest, input: ActivityInput): void {
  const ctx = request.server.activityContext;
  const user = signedIn(request);
  const scope = user?.scope ?? '/';
  ctx.log.append(completeEntry({
    ...input,
    user: input.user ?? user?.username ?? '',
    address: ctx.addressOf(request),
    path: input.path === undefined ? '' : rootPath(scope, input.path),
    destination: input.destination === undefined ? '' : rootPath(scope, input.destination),
  }, ctx.now()));
  drafts.set(request, RECORDED);
}

function describe(request: FastifyRequest, store: Store): Draft | undefined {
  return describeRequest({
    route: request.routeOptions.url ?? '',
    method: request.method,
    params: (request.params ?? {}) as Record<string, string | undefined>,
    query: (request.query ?? {}) as Record<string, unknown>,
    headers: request.headers,
    body: request.body,
    scope: signedIn(request)?.scope,
    db: store.data(),
  });
}

/** A public download counts once per file: a whole body, or a range from byte 0 (players ask for many). */
function downloadBytes(request: FastifyRequest, reply: FastifyReply): number | undefined {
  const status = reply.statusCode;
  if (status !== 200 && status !== 206) return undefined;
  if (status === 206 && !/^bytes=0-/.test(String(request.headers.range ?? ''))) return undefined;
  const length = Number(reply.getHeader('content-length'));
  return Number.isFinite(length) ? length : 0;
}

function finish(draft: Draft, request: FastifyRequest, reply: FastifyReply): Partial<ActivityEntry> | undefined {
  const status = reply.statusCode;
  const ok = status < 400;
  if (draft.failuresOnly && ok) return undefined;
  // A signed-in route refused before its user was known (401): nobody to name, nothing changed.
  if (draft.user === undefined && !signedIn(request)) return undefined;
  const { failuresOnly: _f, download, ...fields } = draft;
  if (download && ok) {
    const bytes = downloadBytes(request, reply);
    if (bytes === undefined) return undefined;
    fields.bytes = bytes;
  }
  if (!ok) fields.bytes = 0;
  return { ...fields, user: draft.user ?? signedIn(request)?.username ?? '', result: ok ? 'ok' : 'failed', status };
}

/**
 * Records the changes made through the existing API routes, from one place: before the handler
 * the route map (activity/route-map.ts) drafts the entry (a deleted user's or share's name is
 * still there to read), and when the response is sent the status completes it.
 */
export const activityPlugin = fp(function activity(app: FastifyInstance, opts: ActivityPluginOptions) {
  const ctx: ActivityContext = { log: opts.log, addressOf: opts.addressOf, now: opts.now ?? Date.now };
  app.decorate('activityContext', ctx);
  app.addHook('preHandler', (request, _reply, done) => {
    const draft = describe(request, opts.store);
    if (draft) drafts.set(request, draft);
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    const known = drafts.get(request);
    // No draft when the request failed before its handler (validation, a refused token).
    const draft = known ?? (reply.statusCode >= 400 ? describe(request, opts.store) : undefined);
    if (draft && draft !== RECORDED) {
      const parts = finish(draft, request, reply);
      if (parts) ctx.log.append(completeEntry({ ...parts, action: draft.action, address: ctx.addressOf(request) }, ctx.now()));
    }
    done();
  });
  app.addHook('onClose', async () => opts.log.close());
}, { name: 'activity' });
