import { cleanPath, parentPath } from '../fs/paths';
import type { Database } from '../state/schema';
import type { ActivityEntry } from './entry';

/** What the activity hook knows of a request, in plain values (no Fastify). */
export interface RequestFacts {
  /** The route pattern ('/api/resources/*'). */
  route: string;
  method: string;
  params: Record<string, string | undefined>;
  query: Record<string, unknown>;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  /** The signed-in user's scope, when there is one. */
  scope: string | undefined;
  db: Readonly<Database>;
}

/** What is known before the handler runs; status, bytes sent, user and address come after. */
export type Draft = Pick<ActivityEntry, 'action'> & Partial<Pick<ActivityEntry, 'path' | 'destination' | 'bytes' | 'detail' | 'user'>> & {
  /** Recorded only when the answer is a failure (a success is recorded elsewhere). */
  failuresOnly?: boolean;
  /** A public download: recorded only when the body starts at byte 0. */
  download?: boolean;
};

/** A user path joined with the scope it is relative to: the path from the server root. */
export function rootPath(scope: string, userPath: string): string {
  return cleanPath(`${cleanPath(scope)}/${userPath}`);
}

function header(facts: RequestFacts, name: string): string | undefined {
  const v = facts.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function declaredBytes(facts: RequestFacts): number {
  const text = header(facts, 'content-length');
  return text !== undefined && /^\d+$/.test(text) ? Number(text) : 0;
}

/** The PATCH destination: decoded once by the router, each segment encoded once more (api.md §3.9). */
function patchDestination(raw: unknown): string {
  if (typeof raw !== 'string') return '';
  return raw.split('/').map((part) => {
    try {
      return decodeURIComponent(part);
    } catch {
      return part;
    }
  }).join('/');
}

function resourcePatch(facts: RequestFacts, path: string): Draft | undefined {
  const scope = facts.scope ?? '/';
  const action = facts.query.action;
  const destination = rootPath(scope, patchDestination(facts.query.destination));
  if (action === 'copy') return { action: 'copy', path, destination };
  if (action !== 'rename') return undefined;
  return { action: parentPath(path) === parentPath(destination) ? 'rename' : 'move', path, destination };
}

function resources(facts: RequestFacts): Draft | undefined {
  const raw = facts.params['*'] ?? '';
  const path = rootPath(facts.scope ?? '/', raw);
  switch (facts.method) {
    case 'POST': {
      const bytes = declaredBytes(facts);
      if (raw.endsWith('/') || bytes === 0) return { action: 'create', path };
      return { action: 'upload', path, bytes };
    }
    case 'PUT':
      return { action: 'save', path, bytes: declaredBytes(facts) };
    case 'DELETE':
      return { action: 'delete', path };
    case 'PATCH':
      return resourcePatch(facts, path);
    default:
      return undefined;
  }
}

function shareByHash(facts: RequestFacts, hash: string): Draft | undefined {
  const share = facts.db.shares.find((s) => s.hash === hash);
  const owner = share && facts.db.users.find((u) => u.id === share.userID);
  return { action: 'share.delete', path: share && owner ? rootPath(owner.scope, share.path) : '', detail: hash };
}

function publicDownload(facts: RequestFacts): Draft | undefined {
  if (facts.method !== 'GET') return undefined;
  const raw = facts.params['*'] ?? '';
  const [hash = '', ...rest] = raw.replace(/^\/+/, '').split('/');
  const share = facts.db.shares.find((s) => s.hash === hash);
  const owner = share && facts.db.users.find((u) => u.id === share.userID);
  const path = share && owner ? rootPath(rootPath(owner.scope, share.path), rest.join('/')) : '';
  return { action: 'share.use', path, detail: hash, user: '', download: true };
}

function userName(facts: RequestFacts): string {
  const data = (facts.body as { data?: { username?: unknown } } | undefined)?.data;
  if (typeof data?.username === 'string' && data.username !== '') return data.username;
  const id = Number(facts.params.id);
  return facts.db.users.find((u) => u.id === id)?.username ?? `#${facts.params.id ?? ''}`;
}

/** The fields a user update names (`which`), never their values: a password is one of them. */
function changedFields(facts: RequestFacts): string {
  const which = (facts.body as { which?: unknown } | undefined)?.which;
  return Array.isArray(which) ? which.filter((w): w is string => typeof w === 'string').join(', ') : '';
}

type Describe = (facts: RequestFacts) => Draft | undefined;

const TABLE: Record<string, Describe> = {
  'POST /api/resources/*': resources,
  'PUT /api/resources/*': resources,
  'DELETE /api/resources/*': resources,
  'PATCH /api/resources/*': resources,
  // A tus upload is recorded when its last byte lands (resources/tus); here a refused start, or an empty file (complete at once).
  'POST /api/tus/*': (f) => ({ action: 'upload', path: rootPath(f.scope ?? '/', f.params['*'] ?? ''), failuresOnly: header(f, 'upload-length') !== '0' }),
  'POST /api/share/*': (f) => ({ action: 'share.create', path: rootPath(f.scope ?? '/', f.params['*'] ?? '') }),
  'DELETE /api/share/*': (f) => shareByHash(f, (f.params['*'] ?? '').replace(/^\/+/, '')),
  'GET /api/public/dl/*': publicDownload,
  'POST /api/users': (f) => ({ action: 'user.create', detail: userName(f) }),
  'PUT /api/users/:id(^\\d+$)': (f) => ({ action: 'user.update', detail: [userName(f), changedFields(f)].filter(Boolean).join(': ') }),
  'DELETE /api/users/:id(^\\d+$)': (f) => ({ action: 'user.delete', detail: userName(f) }),
  'POST /api/users/:id(^\\d+$)/logout': (f) => ({ action: 'user.logout', detail: userName(f) }),
  'PUT /api/settings': () => ({ action: 'settings.update' }),
};

/**
 * THE map of the existing API routes to activity actions: (route, method, query action) to a
 * draft entry, or undefined for a request that changes nothing. Sign-in and sign-up are recorded
 * by the auth service, which knows the name tried.
 */
export function describeRequest(facts: RequestFacts): Draft | undefined {
  return TABLE[`${facts.method} ${facts.route}`]?.(facts);
}
