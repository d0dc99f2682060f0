// Every URL the UI builds, and nowhere else (ARCHITECTURE.md). App paths are relative to the
// router base (wouter adds BaseURL); API paths get BaseURL from web/api/http.ts.

import type { PageConfig } from '@contract/page-config';

export type SettingsTab = 'profile' | 'shares' | 'global' | 'users' | 'activity';
export type ErrorStatus = 403 | 404 | 500;

const DEFAULT_AFTER_LOGIN = '/files/';

/**
 * Where an error notice's "Report Issue" link leads: the issue tracker set in branding, or null
 * (no link) when none is set, external links are disabled, or it is not an http(s) address.
 */
export function reportIssueUrl(config: Pick<PageConfig, 'IssueTracker' | 'DisableExternal'>): string | null {
  const address = config.IssueTracker.trim();
  return !config.DisableExternal && /^https?:\/\/./i.test(address) ? address : null;
}

/** Percent-encodes every segment of a `/`-separated path, keeping the slashes. */
export function encodePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The user path under the files route: `/docs/a b.txt` -> `/files/docs/a%20b.txt`. */
export function filesPath(resourcePath = '/'): string {
  const path = resourcePath.startsWith('/') ? resourcePath : `/${resourcePath}`;
  return `/files${encodePath(path)}`;
}

/** A text file opened in the editor rather than its preview (a Markdown file previews first). */
export function editPath(resourcePath: string): string {
  return `${filesPath(resourcePath)}?edit=1`;
}

/** The login route, remembering where to go afterwards. */
export function loginPath(redirect?: string): string {
  return redirect ? `/login?redirect=${encodeURIComponent(redirect)}` : '/login';
}

/** The login route opened in sign-up mode. */
export function signupPath(): string {
  return '/login?mode=signup';
}

export function settingsPath(tab: SettingsTab): string {
  return `/settings/${tab}`;
}

export function userEditPath(id: number | 'new'): string {
  return `/settings/users/${id}`;
}

export function sharePath(hash: string, path = ''): string {
  return `/share/${encodeURIComponent(hash)}${encodePath(path)}`;
}

/** The Trash page (beyond.md §3). */
export function trashPath(): string {
  return '/trash';
}

/** The WebDAV mount of the signed-in user's scope (beyond.md §1), as a client types it. */
export function davAddress(origin: string, base: string): string {
  return `${origin}${base}/dav/`;
}

export function errorPath(status: ErrorStatus): string {
  return `/${status}`;
}

/** The hash and the sub-path of a raw `/share/<hash>/...` pathname, segments decoded one by one. */
export function shareFromLocation(pathname: string, base: string): { hash: string; path: string } {
  const inApp = stripBase(pathname, base) ?? pathname;
  const [hash = '', ...rest] = inApp.replace(/^\/share\/?/, '').split('/');
  const path = `/${rest.map(decodeSegment).join('/')}`;
  return { hash: decodeSegment(hash), path };
}

/** Strips the base URL from a raw pathname; null when the pathname lies outside the base. */
export function stripBase(pathname: string, base: string): string | null {
  if (!base) return pathname;
  if (pathname === base) return '/';
  return pathname.startsWith(`${base}/`) ? pathname.slice(base.length) : null;
}

/**
 * The decoded user path of a raw `/files/...` pathname. Segments are decoded one by one because
 * a name may hold `%2F`-like text or `#`, which whole-URL decoding would confuse.
 */
export function resourcePathFromLocation(pathname: string, base: string): string {
  const inApp = stripBase(pathname, base) ?? pathname;
  const rest = inApp.replace(/^\/files(?=\/|$)/, '');
  const decoded = rest.split('/').map(decodeSegment).join('/');
  return decoded.startsWith('/') ? decoded : `/${decoded}`;
}

/** A redirect target only when it stays inside the app, else the default `/files/`. */
export function safeRedirect(value: string | null | undefined): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.includes('\\')) {
    return DEFAULT_AFTER_LOGIN;
  }
  return value;
}

/** `dir` + `name`, with a trailing slash for folders (the API creates a folder for `/x/`). */
export function joinPath(dir: string, name: string, isDir = false): string {
  const base = dir.endsWith('/') ? dir : `${dir}/`;
  return `${base}${name}${isDir ? '/' : ''}`;
}

/** The folder a path is in, ending with `/`; the root's parent is the root. */
export function parentPath(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  const cut = trimmed.lastIndexOf('/');
  return cut <= 0 ? '/' : `${trimmed.slice(0, cut)}/`;
}

/** The last segment of a path: `/a/b.txt` -> `b.txt` ('' when it ends with `/`). */
export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** A folder's name as the UI shows it: its last segment, '' for the root (which has a word of its own). */
export function folderName(path: string): string {
  return baseName(path.replace(/\/$/, ''));
}

/** The folder of `path` itself when it ends with `/`, else its parent. */
export function folderOf(path: string): string {
  return path.endsWith('/') ? path : parentPath(path);
}

export interface Crumb {
  name: string;
  /** The folder's user path, ending with `/`. */
  path: string;
}

/** One crumb per folder segment of `path`, root excluded: `/a/b/` -> a (/a/), b (/a/b/). */
export function crumbs(path: string): Crumb[] {
  const names = path.split('/').filter(Boolean);
  return names.map((name, i) => ({ name, path: `/${names.slice(0, i + 1).join('/')}/` }));
}

/** `path` with the defined, non-empty parameters as a query string. */
export function withQuery(path: string, params: Record<string, string | undefined>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value) query.set(key, value);
  }
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

/** API paths, without the base URL. */
export const apiPaths = {
  login: '/api/login',
  oidcLogin: (redirect: string): string => `/api/auth/oidc/login?redirect=${encodeURIComponent(redirect)}`,
  oidcToken: '/api/auth/oidc/token',
  oidcLogout: '/api/auth/oidc/logout',
  signup: '/api/signup',
  renew: '/api/renew',
  resources: (path: string): string => `/api/resources${encodePath(path)}`,
  usage: (path: string): string => `/api/usage${encodePath(path)}`,
  tus: (path: string): string => `/api/tus${encodePath(path)}`,
  raw: (path: string): string => `/api/raw${encodePath(path)}`,
  users: '/api/users',
  user: (id: number): string => `/api/users/${id}`,
  settings: '/api/settings',
  tokens: '/api/tokens',
  token: (id: string): string => `/api/tokens/${encodeURIComponent(id)}`,
  totp: '/api/totp',
  totpConfirm: '/api/totp/confirm',
  shares: '/api/shares',
  share: (hash: string): string => `/api/share/${encodeURIComponent(hash)}`,
  sharesOf: (path: string): string => `/api/share${encodePath(path)}`,
  thumb: (path: string): string => `/api/preview/thumb${encodePath(path)}`,
  big: (path: string): string => `/api/preview/big${encodePath(path)}`,
  subtitle: (path: string): string => `/api/subtitle${encodePath(path)}`,
  search: (path: string): string => `/api/search${encodePath(path)}`,
  command: (path: string): string => `/api/command${encodePath(path)}`,
  publicShare: (hash: string, path: string): string => `/api/public/share/${encodeURIComponent(hash)}${encodePath(path)}`,
  publicDownload: (hash: string, path: string): string => `/api/public/dl/${encodeURIComponent(hash)}${encodePath(path)}`,
  activity: '/api/activity',
  activityCsv: '/api/activity.csv',
  trash: '/api/trash',
  trashItem: (id: string): string => `/api/trash/${encodeURIComponent(id)}`,
  trashRestore: (id: string, query: { override?: boolean; rename?: boolean }): string =>
    `/api/trash/${encodeURIComponent(id)}/restore${query.override ? '?override=true' : query.rename ? '?rename=true' : ''}`,
  /** tus creation through an upload link (beyond.md §2): one file name, no folders. */
  publicTus: (hash: string, name: string): string => `/api/public/tus/${encodeURIComponent(hash)}/${encodeURIComponent(name)}`,
} as const;

/** An absolute URL path for links the browser follows itself (downloads, static files). */
export function withBase(base: string, path: string): string {
  return `${base}${path}`;
}

/** Archive formats of the download prompt (product.md §5) and the `algo` the API takes for each. */
export const ARCHIVE_FORMATS = [
  ['zip', 'zip'],
  ['tar', 'tar'],
  ['tar.gz', 'targz'],
  ['tar.bz2', 'tarbz2'],
  ['tar.xz', 'tarxz'],
  ['tar.lz4', 'tarlz4'],
  ['tar.sz', 'tarsz'],
  ['tar.zst', 'tarzst'],
] as const;

export type ArchiveAlgo = (typeof ARCHIVE_FORMATS)[number][1];

/**
 * GET /api/raw for an archive: of `folder` itself, or of the selected `paths` (api.md §3.11: the
 * `files` list of per-segment-encoded full paths, requested from the root).
 */
export function archivePath(folder: string, paths: readonly string[], algo: ArchiveAlgo): string {
  if (paths.length === 0) return withQuery(apiPaths.raw(folder), { algo });
  return withQuery(apiPaths.raw('/'), { files: paths.map(encodePath).join(','), algo });
}

/**
 * GET /api/public/dl for an archive of several items of a folder share: the `files` list of their
 * share paths, requested from the share's root (api.md §3.16, §3.11); `token` for protected links.
 */
export function publicArchivePath(hash: string, paths: readonly string[], token?: string): string {
  return withQuery(apiPaths.publicDownload(hash, '/'), { files: paths.map(encodePath).join(','), algo: 'zip', token });
}

/** PATCH ?action=extract of an archive into the folder `dest` (beyond.md §5), encoded as a copy's destination. */
export function extractPath(archive: string, dest: string, override: boolean): string {
  return `${apiPaths.resources(archive)}?action=extract&destination=${encodeURIComponent(encodePath(dest))}&override=${override}`;
}

/** The PATCH destination: per-segment encoded, then encoded once more (api.md §3.9 step 1). */
export function patchPath(move: { action: 'copy' | 'rename'; from: string; to: string }, flags: { override: boolean; rename: boolean }): string {
  const destination = encodeURIComponent(encodePath(move.to));
  return `${apiPaths.resources(move.from)}?action=${move.action}&destination=${destination}&override=${flags.override}&rename=${flags.rename}`;
}
