import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServerConfig } from '../config';
import { AppError } from '../errors';
import type { AssetSource } from '../lib/assets';
import { statusBody, statusBodyHeaders } from '../lib/status-body';
import type { Store } from '../state/store';
import { readBrandingFile, hasCustomCss, usableBrandingDir, type BrandingFile } from './web-assets/branding';
import { contentTypeOf } from './web-assets/content-types';
import { indexCsp } from './web-assets/csp';
import { compileIndex, escapeHtml, type IndexValues } from './web-assets/index-template';
import { INDEX_TEMPLATE_KEY, WEB_MANIFEST_KEY, parseWebManifest, webAssetKey, type ScreenPreload, type WebFile } from './web-assets/manifest';
import { screenPreloadTags } from './web-assets/screen-preload';
import { etagMatches, pickEncoding } from './web-assets/negotiate';
import { buildPageConfig, pageConfigJson } from './web-assets/page-config';

export interface WebAssetsDeps {
  store: Store;
  config: ServerConfig;
  assets: AssetSource;
}

export interface WebAssets {
  /** The not-found plugin's answer to a GET that matched no route: the SPA index. */
  sendIndex: (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;
  /** Registers `GET /static/*`. */
  routes: (app: FastifyInstance) => void;
}

interface WebBundle {
  files: ReadonlyMap<string, WebFile>;
  screens: readonly ScreenPreload[];
  render: ((values: IndexValues) => string) | undefined;
}

const IMMUTABLE = 'public, max-age=31536000, immutable';
const ONE_DAY = 'public, max-age=86400';
const NO_STORE = 'no-cache, no-store, must-revalidate';
const DEFAULT_COLOR = '#2979ff';

/** Reads the manifest and template once; a build without the web app serves 404s instead. */
function loadBundle(assets: AssetSource): WebBundle {
  const manifest = assets.read(WEB_MANIFEST_KEY);
  const template = assets.read(INDEX_TEMPLATE_KEY);
  const parsed = manifest ? parseWebManifest(manifest) : undefined;
  const files = new Map((parsed?.files ?? []).map((f) => [f.path, f] as const));
  return { files, screens: parsed?.screens ?? [], render: template ? compileIndex(template.toString('utf8')) : undefined };
}

/** A path below /static/ that names a file: no empty, `.` or `..` segment, no trailing slash. */
function isFilePath(rel: string): boolean {
  return rel !== '' && rel.split('/').every((seg) => seg !== '' && seg !== '.' && seg !== '..') && !rel.includes('\\');
}

function notModified(request: FastifyRequest, reply: FastifyReply, etag: string): boolean {
  reply.header('etag', etag);
  return etagMatches(request.headers['if-none-match'], etag);
}

function commonHeaders(reply: FastifyReply, path: string, cacheControl: string): void {
  reply.header('cache-control', cacheControl).header('x-content-type-options', 'nosniff');
  // An SVG opened directly must not run script in the app's origin.
  if (path.toLowerCase().endsWith('.svg')) reply.header('content-security-policy', 'sandbox');
}

function sendWebFile(request: FastifyRequest, reply: FastifyReply, ctx: { file: WebFile; assets: AssetSource }): FastifyReply {
  const { file, assets } = ctx;
  const encoding = pickEncoding(request.headers['accept-encoding'], file.variants);
  commonHeaders(reply, file.path, file.hashed ? IMMUTABLE : ONE_DAY);
  if (file.variants.length > 0) reply.header('vary', 'Accept-Encoding');
  if (notModified(request, reply, `"${file.etag}${encoding ? `-${encoding}` : ''}"`)) return reply.code(304).send();
  const data = assets.read(webAssetKey(file.path, encoding));
  if (!data) throw new AppError('not_found');
  if (encoding) reply.header('content-encoding', encoding);
  return reply.type(file.type).send(data);
}

function sendBrandingFile(request: FastifyRequest, reply: FastifyReply, ctx: { rel: string; file: BrandingFile }): FastifyReply {
  const { rel, file } = ctx;
  commonHeaders(reply, rel, ONE_DAY);
  const tag = createHash('sha256').update(`${file.mtimeMs}:${file.data.length}:${rel}`).digest('base64url').slice(0, 22);
  if (notModified(request, reply, `"${tag}"`)) return reply.code(304).send();
  return reply.type(contentTypeOf(rel)).send(file.data);
}

async function brandingFile(deps: WebAssetsDeps, rel: string): Promise<BrandingFile | undefined> {
  if (rel !== 'custom.css' && !rel.startsWith('img/')) return undefined;
  const dir = await usableBrandingDir(deps.store.data().settings.branding.files, deps.config.root);
  return dir ? readBrandingFile(dir, rel) : undefined;
}

function staticRoutes(deps: WebAssetsDeps, bundle: WebBundle) {
  return (app: FastifyInstance): void => {
    if (bundle.files.size === 0) app.log.warn('the web app is missing from the assets: build it with npm run build');
    // GET only; other methods answer 404, not 405 (api.md §3.19).
    app.all('/static/*', async (request, reply) => {
      const rel = (request.params as { '*': string })['*'];
      if ((request.method !== 'GET' && request.method !== 'HEAD') || !isFilePath(rel)) throw new AppError('not_found');
      const override = await brandingFile(deps, rel);
      if (override) return sendBrandingFile(request, reply, { rel, file: override });
      const file = rel === 'custom.css' ? undefined : bundle.files.get(rel);
      if (!file) throw new AppError('not_found');
      return sendWebFile(request, reply, { file, assets: deps.assets });
    });
  };
}

async function indexValues(deps: WebAssetsDeps, nonce: string, preload: (staticURL: string) => string): Promise<{ values: IndexValues; recaptchaHost?: string }> {
  const { settings, auther } = deps.store.data();
  const dir = await usableBrandingDir(settings.branding.files, deps.config.root);
  const page = buildPageConfig({ settings, auther, config: deps.config, hasCustomCss: await hasCustomCss(dir) });
  const staticURL = escapeHtml(page.StaticURL);
  const recaptchaHost = page.ReCaptcha ? page.ReCaptchaHost : undefined;
  const values: IndexValues = {
    Title: escapeHtml(page.Name || 'filemgr'),
    Color: escapeHtml(page.Color || DEFAULT_COLOR),
    StaticURL: staticURL,
    Nonce: nonce,
    Json: pageConfigJson(page),
    Preload: preload(staticURL),
    ReCaptcha: recaptchaHost
      ? `<script nonce="${nonce}" src="${escapeHtml(recaptchaHost)}/recaptcha/api.js?render=explicit" async defer></script>`
      : '',
    CustomCSS: page.CSS ? `<link rel="stylesheet" href="${staticURL}/custom.css">` : '',
  };
  return recaptchaHost ? { values, recaptchaHost } : { values };
}

function indexSender(deps: WebAssetsDeps, bundle: WebBundle): WebAssets['sendIndex'] {
  return async (request, reply) => {
    const { render } = bundle;
    if (!render) return reply.code(404).headers(statusBodyHeaders).send(statusBody(404));
    const nonce = randomBytes(16).toString('base64');
    const { values, recaptchaHost } = await indexValues(deps, nonce, (staticURL) => screenPreloadTags(bundle.screens, request.url, staticURL));
    return reply
      .code(200)
      .headers({
        'content-type': 'text/html; charset=utf-8',
        'x-xss-protection': '1; mode=block',
        'x-content-type-options': 'nosniff',
        'cache-control': NO_STORE,
        'content-security-policy': indexCsp(nonce, recaptchaHost),
      })
      .send(render(values));
  };
}

/**
 * The web app served from memory (the AssetSource): `/static/*` with precompressed variants,
 * ETags and long-lived caching of hashed names, branding overrides, and the SPA index with the
 * page configuration and a per-response CSP nonce. Throws at start when the build is inconsistent.
 */
export function createWebAssets(deps: WebAssetsDeps): WebAssets {
  const bundle = loadBundle(deps.assets);
  return { sendIndex: indexSender(deps, bundle), routes: staticRoutes(deps, bundle) };
}
