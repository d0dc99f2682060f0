import { posix } from 'node:path';
import { AppError } from '../../errors';

/** The mount of the WebDAV server below the base URL. */
export const DAV_MOUNT = '/dav';

/** Percent-encodes one path segment: `#`, `%`, spaces, reserved and non-ASCII characters. */
function encodeSegment(segment: string): string {
  return encodeURIComponent(segment);
}

/**
 * The href of a user path: `<baseURL>/dav/<segments>` with every segment percent-encoded, and a
 * trailing '/' for a collection (RFC 4918 §8.3).
 */
export function hrefOf(base: string, path: string, collection: boolean): string {
  const encoded = path === '/' ? '' : path.split('/').map(encodeSegment).join('/');
  return `${base}${encoded}${collection ? '/' : ''}`;
}

/** Decodes a percent-encoded path; a malformed escape answers 400. */
function decodePath(encoded: string): string {
  try {
    return decodeURIComponent(encoded);
  } catch {
    throw new AppError('bad_request', 'invalid percent-encoding in the path');
  }
}

/** The part of a routed path after the mount, or undefined when it is not below the mount. */
function belowMount(pathname: string, mount: string): string | undefined {
  if (pathname === mount) return '/';
  if (!pathname.startsWith(`${mount}/`)) return undefined;
  return pathname.slice(mount.length);
}

/** The decoded user path of a request URL (base URL already stripped by the router). */
export function requestPath(url: string): string {
  const q = url.indexOf('?');
  const pathname = q < 0 ? url : url.slice(0, q);
  const rest = belowMount(pathname, DAV_MOUNT);
  if (rest === undefined) throw new AppError('not_found');
  return decodePath(rest);
}

/** Where a `Destination` (or an `If` resource tag) points, relative to this server. */
export type Located = { kind: 'path'; path: string } | { kind: 'elsewhere' } | { kind: 'outside' };

function hostOf(header: string | undefined): string {
  return (header ?? '').trim().toLowerCase();
}

/**
 * Locates an absolute URL or absolute path against this server's mount (`<baseURL>/dav`): a URL of
 * another host is `elsewhere` (502 for Destination), a path off the mount is `outside` (403),
 * otherwise the decoded user path. Dot segments are resolved before the mount is compared, so
 * `/dav/../x` is outside.
 */
export function locate(value: string, opts: { host: string | undefined; baseURL: string; anyHost?: boolean }): Located {
  const text = value.trim();
  let pathname: string;
  if (text.startsWith('/')) {
    pathname = posix.normalize(text.split('?')[0] ?? '/');
  } else {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw new AppError('bad_request', 'invalid URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new AppError('bad_request', 'invalid URL');
    if (opts.anyHost !== true && url.host.toLowerCase() !== hostOf(opts.host)) return { kind: 'elsewhere' };
    pathname = url.pathname;
  }
  const rest = belowMount(pathname, `${opts.baseURL}${DAV_MOUNT}`);
  if (rest === undefined) return { kind: 'outside' };
  const path = decodePath(rest);
  // Encoded dot segments (`/dav/%2e%2e/x`) climb above the mount once decoded: outside, as `/dav/../x` is.
  if (climbsAboveRoot(path)) return { kind: 'outside' };
  return { kind: 'path', path };
}

/** Whether `..` segments of a decoded path would climb above its root. */
function climbsAboveRoot(path: string): boolean {
  let depth = 0;
  for (const segment of path.split('/')) {
    if (segment === '..') depth--;
    else if (segment !== '' && segment !== '.') depth++;
    if (depth < 0) return true;
  }
  return false;
}

/** The user path a `Destination` header names: 400 missing or malformed, 502 another host, 403 off the mount. */
export function destinationPath(value: string | undefined, opts: { host: string | undefined; baseURL: string }): string {
  if (value === undefined || value.trim() === '') throw new AppError('bad_request', 'missing Destination header');
  const where = locate(value, opts);
  if (where.kind === 'elsewhere') throw new AppError('bad_gateway');
  if (where.kind === 'outside') throw new AppError('forbidden');
  return where.path;
}
