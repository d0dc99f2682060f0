import { AppError } from '../../errors';
import { isVisible, listContext, readNames } from '../../fs/listing';
import { joinPath } from '../../fs/paths';
import type { Target } from '../../fs/scope';
import { mountOf, statOrNull, type DavCtx, type DavReply } from './context';
import { hrefOf } from './href';
import { escapeXml } from './xml-render';
import { checkConditions } from './conditions';
import { ROUTE_CSP } from '../../plugins/security-headers';

/** A browser opening a collection gets a plain list of links to its members. */
async function collectionPage({ deps, req }: DavCtx, target: Target): Promise<DavReply> {
  const ctx = await listContext(req.gate, target, { modify: false, sniff: 'off' });
  const names = (await readNames(target)).filter((n) => isVisible(ctx, n));
  const mount = mountOf(deps);
  const items = names.map((n) => `<li><a href="${escapeXml(hrefOf(mount, joinPath(target.path, n), false))}">${escapeXml(n)}</a></li>`).join('\n');
  const title = escapeXml(target.path);
  const body = `<!doctype html>\n<meta charset="utf-8">\n<title>${title}</title>\n<h1>${title}</h1>\n<ul>\n${items}\n</ul>\n`;
  const headers = { 'content-type': 'text/html; charset=utf-8', 'content-length': String(Buffer.byteLength(body)) };
  return { status: 200, headers, body: req.method === 'HEAD' ? undefined : body };
}

/**
 * GET and HEAD (RFC 4918 §9.4): a file is served exactly as GET /api/raw serves it inline (Range,
 * ETag, If-Match/If-None-Match/If-Range, 304/412/416); files need the download permission.
 */
export async function getResource(ctx: DavCtx): Promise<DavReply> {
  const { deps, req } = ctx;
  const target = await req.gate.resolve(req.path);
  const s = await statOrNull(target);
  if (!s) throw new AppError('not_found');
  // An If header binds every method (RFC 4918 §10.4); a read touches no lock.
  await checkConditions(ctx, target, []);
  if (s.effective.isDirectory()) return collectionPage(ctx, target);
  if (!req.user.perm.download) throw new AppError('forbidden');
  const served = await deps.rawFile(req.gate, { path: target.path, method: req.method, headers: req.headers, inline: true });
  // The global CSP goes first, the download's own (no scripts, sandboxed) after it, as /api/raw sends them.
  const csp = served.headers['content-security-policy'];
  const headers = csp === undefined ? served.headers : { ...served.headers, 'content-security-policy': [ROUTE_CSP, ...[csp].flat()] };
  return { status: served.status, headers, body: served.body };
}
