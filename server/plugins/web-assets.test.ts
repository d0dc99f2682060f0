import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { makeTree } from '../../tests/support/tree';
import { buildApp } from '../app';
import { defaultServerConfig, type ServerConfig } from '../config';
import type { AssetSource } from '../lib/assets';
import { emptyDatabase } from '../state/initial';
import type { Database } from '../state/schema';
import { memoryStore, type Store } from '../state/store';
import { renderEntry } from './web-assets/index-template';
import type { WebFile, WebManifest } from './web-assets/manifest';

const MAIN_JS = 'console.log("filemgr main module, long enough to be worth compressing");'.repeat(20);
const MAIN_CSS = 'body { margin: 0; padding: 0; font-family: system-ui, sans-serif; }\n'.repeat(20);
const LOGO_SVG = '<svg xmlns="http://www.w3.org/2000/svg"><rect width="10" height="10"/></svg>';
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

function webFile(path: string, type: string, opts: Pick<WebFile, 'hashed' | 'variants'>): WebFile {
  return { path, type, etag: `etag-${path.replace(/\W/g, '')}`, size: 0, ...opts };
}

/** An in-memory build: a hashed entry with br and gzip variants, a stylesheet, public images. */
function memoryAssets(extra: Record<string, Buffer> = {}): AssetSource {
  const manifest: WebManifest = {
    version: 1,
    entry: { js: 'assets/main-AB12CD34.js', css: 'assets/main-EF56GH78.css' },
    files: [
      webFile('assets/main-AB12CD34.js', 'text/javascript; charset=utf-8', { hashed: true, variants: ['br', 'gzip'] }),
      webFile('assets/main-EF56GH78.css', 'text/css; charset=utf-8', { hashed: true, variants: ['gzip'] }),
      webFile('img/logo.svg', 'image/svg+xml', { hashed: false, variants: [] }),
      webFile('img/icons/favicon.png', 'image/png', { hashed: false, variants: [] }),
    ],
    screens: [
      { routes: ['/', '/files'], chunks: ['assets/chunks/files-screen-AAAA1111.js', 'assets/chunks/chunk-BBBB2222.js'] },
      { routes: ['/share'], chunks: ['assets/chunks/share-page-CCCC3333.js'] },
    ],
  };
  const template = renderEntry(readFileSync(join(__dirname, '../../web/index.html'), 'utf8'), manifest.entry);
  const files: Record<string, Buffer> = {
    'web-manifest.json': Buffer.from(JSON.stringify(manifest)),
    'index.html': Buffer.from(template),
    'web/assets/main-AB12CD34.js': Buffer.from(MAIN_JS),
    'web/assets/main-AB12CD34.js.br': brotliCompressSync(MAIN_JS),
    'web/assets/main-AB12CD34.js.gz': gzipSync(MAIN_JS),
    'web/assets/main-EF56GH78.css': Buffer.from(MAIN_CSS),
    'web/assets/main-EF56GH78.css.gz': gzipSync(MAIN_CSS),
    'web/img/logo.svg': Buffer.from(LOGO_SVG),
    'web/img/icons/favicon.png': PNG,
    ...extra,
  };
  return { read: (key) => files[key] };
}

interface Setup {
  config?: Partial<ServerConfig>;
  db?: (db: Database) => void;
  assets?: AssetSource;
}

async function setup(opts: Setup = {}): Promise<{ app: FastifyInstance; store: Store }> {
  const db = emptyDatabase();
  opts.db?.(db);
  const store = memoryStore(db);
  const root = await makeTree({ 'a.txt': 'x' });
  const config = defaultServerConfig({ root, version: '1.2.3', ...opts.config });
  return { app: await buildApp({ store, config, assets: opts.assets ?? memoryAssets() }), store };
}

/** The page configuration object the index page assigns to window.FileBrowser. */
function pageConfigOf(html: string): Record<string, unknown> {
  const match = /window\.FileBrowser = (.*?);<\/script>/.exec(html);
  if (!match?.[1]) throw new Error('no page configuration in the page');
  return JSON.parse(match[1]) as Record<string, unknown>;
}

describe('GET /static/*', () => {
  it('serves a hashed asset with its type, an ETag and a one-year immutable cache', async () => {
    const { app } = await setup();
    const res = await app.inject({ url: '/static/assets/main-AB12CD34.js' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(MAIN_JS);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['etag']).toBe('"etag-assetsmainAB12CD34js"');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['vary']).toBe('Accept-Encoding');
    expect(res.headers['content-encoding']).toBeUndefined();
  });

  it('caches names without a content hash for one day', async () => {
    const { app } = await setup();
    const res = await app.inject({ url: '/static/img/icons/favicon.png' });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(PNG)).toBe(true);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['cache-control']).toBe('public, max-age=86400');
    expect(res.headers['vary']).toBeUndefined();
  });

  it.each([
    ['br, gzip, deflate', 'br'],
    ['gzip, deflate, br;q=0.5', 'gzip'],
    ['gzip', 'gzip'],
    ['x-gzip', 'gzip'],
    ['*', 'br'],
    ['br;q=0, gzip;q=0', undefined],
    ['identity', undefined],
    ['deflate', undefined],
    ['', undefined],
  ])('answers Accept-Encoding %j with encoding %s', async (accept, encoding) => {
    const { app } = await setup();
    const res = await app.inject({ url: '/static/assets/main-AB12CD34.js', headers: { 'accept-encoding': accept } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe(encoding);
    const decoded = encoding === 'br' ? brotliDecompressSync(res.rawPayload) : encoding === 'gzip' ? gunzipSync(res.rawPayload) : res.rawPayload;
    expect(decoded.toString()).toBe(MAIN_JS);
    expect(res.headers['etag']).toBe(encoding ? `"etag-assetsmainAB12CD34js-${encoding}"` : '"etag-assetsmainAB12CD34js"');
  });

  it('falls back to the encodings a file has: brotli is asked for but only gzip exists', async () => {
    const { app } = await setup();
    const res = await app.inject({ url: '/static/assets/main-EF56GH78.css', headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(res.rawPayload).toString()).toBe(MAIN_CSS);
  });

  it.each([
    ['"etag-assetsmainAB12CD34js-br"', 'br', 304],
    ['W/"etag-assetsmainAB12CD34js-br"', 'br', 304],
    ['"other", "etag-assetsmainAB12CD34js"', '', 304],
    ['*', 'gzip', 304],
    ['"etag-assetsmainAB12CD34js"', 'br', 200],
    ['"etag-assetsmainAB12CD34js-gzip"', 'br', 200],
  ])('answers If-None-Match %s with Accept-Encoding %j: %i', async (tag, accept, status) => {
    const { app } = await setup();
    const res = await app.inject({ url: '/static/assets/main-AB12CD34.js', headers: { 'if-none-match': tag, 'accept-encoding': accept } });
    expect(res.statusCode).toBe(status);
    if (status === 304) expect(res.body).toBe('');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('serves SVG with a sandbox policy so it cannot script the app origin', async () => {
    const { app } = await setup();
    const res = await app.inject({ url: '/static/img/logo.svg' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(res.headers['content-security-policy']).toBe('sandbox');
  });

  it('answers HEAD with the headers of GET', async () => {
    const { app } = await setup();
    const res = await app.inject({ method: 'HEAD', url: '/static/assets/main-AB12CD34.js', headers: { 'accept-encoding': 'gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.body).toBe('');
  });

  it.each([
    ['GET', '/static/nope.js'],
    ['GET', '/static/'],
    ['GET', '/static/img/'],
    ['GET', '/static/img//logo.svg'],
    ['GET', '/static/index.html'],
    ['GET', '/static/web-manifest.json'],
    ['GET', '/static/custom.css'],
    ['POST', '/static/assets/main-AB12CD34.js'],
    ['PUT', '/static/img/logo.svg'],
    ['DELETE', '/static/img/logo.svg'],
  ])('answers %s %s with 404 Not Found', async (method, url) => {
    const { app } = await setup();
    const res = await app.inject({ method: method as 'GET', url });
    expect(res.statusCode).toBe(404);
    expect(res.body).toBe('404 Not Found\n');
  });

  // inject() normalises dot segments like a browser would; a raw socket sends them verbatim.
  it.each(['/static/img/../assets/main-AB12CD34.js', '/static/img/%2e%2e/assets/main-AB12CD34.js', '/static/img/..%2flogo.svg'])(
    'answers a verbatim %s with 404 Not Found',
    async (path) => {
      const { app } = await setup();
      await app.listen({ port: 0, host: '127.0.0.1' });
      try {
        const { port } = app.server.address() as AddressInfo;
        const status = await new Promise<number | undefined>((resolve, reject) => {
          request({ host: '127.0.0.1', port, path }, (res) => {
            res.resume();
            resolve(res.statusCode);
          }).on('error', reject).end();
        });
        expect(status).toBe(404);
      } finally {
        await app.close();
      }
    },
  );

  it('serves under the base URL', async () => {
    const { app } = await setup({ config: { baseURL: '/fb' } });
    const res = await app.inject({ url: '/fb/static/assets/main-AB12CD34.js' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(MAIN_JS);
  });
});

describe('GET /static/* with branding files', () => {
  async function branded(tree: Parameters<typeof makeTree>[0]) {
    const dir = await makeTree(tree);
    return setup({ db: (db) => void (db.settings.branding.files = dir) });
  }

  it('serves img/ from the branding directory before the embedded file, with nosniff', async () => {
    const { app } = await branded({ 'img/logo.svg': '<svg id="mine"/>' });
    const res = await app.inject({ url: '/static/img/logo.svg' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('<svg id="mine"/>');
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toBe('sandbox');
    expect(res.headers['cache-control']).toBe('public, max-age=86400');
    const again = await app.inject({ url: '/static/img/logo.svg', headers: { 'if-none-match': String(res.headers['etag']) } });
    expect(again.statusCode).toBe(304);
  });

  it('falls back to the embedded image when the branding directory lacks it', async () => {
    const { app } = await branded({ 'img/other.png': 'x' });
    const res = await app.inject({ url: '/static/img/logo.svg' });
    expect(res.body).toBe(LOGO_SVG);
  });

  it('serves custom.css from the branding directory as text/css', async () => {
    const { app } = await branded({ 'custom.css': 'body{color:red}' });
    const res = await app.inject({ url: '/static/custom.css' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('body{color:red}');
    expect(res.headers['content-type']).toBe('text/css; charset=utf-8');
  });

  it('does not follow a symlink out of the branding directory', async () => {
    const outside = await makeTree({ 'secret.svg': '<svg id="secret"/>' });
    const { app } = await branded({ 'img/logo.svg': { symlink: join(outside, 'secret.svg') } });
    const res = await app.inject({ url: '/static/img/logo.svg' });
    expect(res.body).toBe(LOGO_SVG);
  });

  it('ignores a branding directory inside the served root', async () => {
    const root = await makeTree({ 'brand/custom.css': 'body{}', 'brand/img/logo.svg': '<svg id="upload"/>' });
    const { app } = await setup({ config: { root }, db: (db) => void (db.settings.branding.files = join(root, 'brand')) });
    expect((await app.inject({ url: '/static/custom.css' })).statusCode).toBe(404);
    expect((await app.inject({ url: '/static/img/logo.svg' })).body).toBe(LOGO_SVG);
    expect(pageConfigOf((await app.inject({ url: '/' })).body)['CSS']).toBe(false);
  });
});

describe('the SPA index', () => {
  it('answers GET / with the page, the headers of api.md §3.19 and a strict CSP', async () => {
    const { app } = await setup();
    const res = await app.inject({ url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['x-xss-protection']).toBe('1; mode=block');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('no-cache, no-store, must-revalidate');
    const csp = String(res.headers['content-security-policy']);
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(csp).toContain(`script-src 'self' 'nonce-${nonce}';`);
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'self'");
    expect(csp).toContain("frame-ancestors 'self'");
    expect(csp).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline/);
    expect(res.body).toContain(`<script nonce="${nonce}">window.FileBrowser = {`);
    expect(res.body).toContain('<html lang="en" dir="ltr">');
    expect(res.body).toContain('<meta name="robots" content="noindex,nofollow">');
    expect(res.body).toContain('<div id="app"></div>');
    expect(res.body).toContain('<script type="module" src="/static/assets/main-AB12CD34.js"></script>');
    expect(res.body).toContain('<link rel="stylesheet" href="/static/assets/main-EF56GH78.css">');
    expect(res.body).toContain('<link rel="icon" type="image/svg+xml" href="/static/img/icons/favicon.svg">');
    expect(res.body).not.toMatch(/\[\{\[|https?:\/\//);
  });

  it('uses a fresh nonce for every response', async () => {
    const { app } = await setup();
    const a = await app.inject({ url: '/' });
    const b = await app.inject({ url: '/' });
    expect(a.headers['content-security-policy']).not.toBe(b.headers['content-security-policy']);
  });

  it('injects the page configuration with sorted keys and the defaults of a new database', async () => {
    const { app } = await setup();
    const html = (await app.inject({ url: '/files/' })).body;
    const config = pageConfigOf(html);
    expect(Object.keys(config)).toEqual([...Object.keys(config)].sort());
    expect(config).toEqual({
      AuthMethod: 'json', BaseURL: '', CSS: false, Color: '', DisableExternal: false, DisableUsedPercentage: false,
      EnableExec: false, EnableThumbs: true, HideLoginButton: true, IssueTracker: '', LoginPage: true, LogoutPage: '/login', Name: '',
      NoAuth: false, OidcName: '', PasswordLogin: true, ReCaptcha: false, ResizePreview: true, Signup: false, StaticURL: '/static', Theme: '', Trash: true,
      TusSettings: { chunkSize: 10485760, retryCount: 5 }, Version: '1.2.3', WebDAV: true,
    });
    expect(html).toContain('<title>filemgr</title>');
    expect(html).toContain('<meta name="theme-color" content="#2979ff">');
  });

  it('reads the settings on every request, so a rename shows at once', async () => {
    const { app, store } = await setup();
    await store.update((db) => {
      db.settings.branding.name = 'Team Files';
      db.settings.branding.color = '#112233';
    });
    const html = (await app.inject({ url: '/login' })).body;
    expect(html).toContain('<title>Team Files</title>');
    expect(html).toContain('<meta name="theme-color" content="#112233">');
    expect(pageConfigOf(html)['Name']).toBe('Team Files');
  });

  it('escapes a hostile branding name in the title and in the script', async () => {
    const name = `</script><script>alert(1)</script><!-- ' & \u2028`;
    const { app } = await setup({ db: (db) => void (db.settings.branding.name = name) });
    const html = (await app.inject({ url: '/' })).body;
    expect(html).toContain('<title>&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;!-- &#39; &amp; \u2028</title>');
    expect(html).not.toContain('alert(1)</script>');
    expect(html).not.toContain('<!-- \'');
    expect(html).toContain('\\u003c/script\\u003e\\u003cscript\\u003ealert(1)\\u003c/script\\u003e\\u003c!-- \\u0027 \\u0026 \\u2028');
    expect(pageConfigOf(html)['Name']).toBe(name);
  });

  it('prefixes every URL and the configuration with the base URL', async () => {
    const { app } = await setup({ config: { baseURL: '/fb' } });
    const html = (await app.inject({ url: '/fb/files/docs/' })).body;
    expect(html).toContain('src="/fb/static/assets/main-AB12CD34.js"');
    expect(html).toContain('href="/fb/static/img/icons/favicon.svg"');
    expect(pageConfigOf(html)).toMatchObject({ BaseURL: '/fb', StaticURL: '/fb/static' });
  });

  it.each([
    ['/fb/', ['files-screen-AAAA1111', 'chunk-BBBB2222']],
    ['/fb/files', ['files-screen-AAAA1111', 'chunk-BBBB2222']],
    ['/fb/files/docs/?sort=name', ['files-screen-AAAA1111', 'chunk-BBBB2222']],
    ['/fb/share/abc', ['share-page-CCCC3333']],
    ['/fb/filesystem', []],
    ['/fb/settings/global', []],
  ])('preloads the chunks of the screen %s opens, after the entry', async (url, chunks) => {
    const { app } = await setup({ config: { baseURL: '/fb' } });
    const html = (await app.inject({ url })).body;
    const preloaded = [...html.matchAll(/<link rel="modulepreload" href="\/fb\/static\/assets\/chunks\/([\w-]+)\.js">/g)].map((m) => m[1]);
    expect(preloaded).toEqual(chunks);
    if (chunks.length > 0) expect(html.indexOf('modulepreload')).toBeGreaterThan(html.indexOf('main-AB12CD34.js'));
    expect(html).not.toContain('[{[');
  });

  it('loads the reCAPTCHA script and allows its host when key and secret are set', async () => {
    const { app } = await setup({ db: (db) => void (db.auther = { recaptcha: { host: 'https://www.google.com', key: 'site-key', secret: 's' } }) });
    const res = await app.inject({ url: '/login' });
    const nonce = /'nonce-([^']+)'/.exec(String(res.headers['content-security-policy']))?.[1] ?? '';
    expect(res.body).toContain(`<script nonce="${nonce}" src="https://www.google.com/recaptcha/api.js?render=explicit" async defer></script>`);
    expect(res.headers['content-security-policy']).toContain(`script-src 'self' 'nonce-${nonce}' https://www.google.com https://www.gstatic.com;`);
    expect(pageConfigOf(res.body)).toMatchObject({ ReCaptcha: true, ReCaptchaHost: 'https://www.google.com', ReCaptchaKey: 'site-key' });
  });

  it('leaves reCAPTCHA out when the secret is missing', async () => {
    const { app } = await setup({ db: (db) => void (db.auther = { recaptcha: { host: 'https://www.google.com', key: 'k', secret: '' } }) });
    const res = await app.inject({ url: '/login' });
    expect(res.body).not.toContain('recaptcha/api.js');
    expect(res.headers['content-security-policy']).not.toContain('google');
    expect(pageConfigOf(res.body)).toMatchObject({ ReCaptcha: false, ReCaptchaHost: 'https://www.google.com', ReCaptchaKey: 'k' });
  });

  it('links custom.css at the end of the body when the branding directory has one', async () => {
    const dir = await makeTree({ 'custom.css': 'body{}' });
    const { app } = await setup({ config: { baseURL: '/fb' }, db: (db) => void (db.settings.branding.files = dir) });
    const html = (await app.inject({ url: '/fb/' })).body;
    expect(html).toMatch(/<link rel="stylesheet" href="\/fb\/static\/custom\.css">\s*<\/body>/);
    expect(pageConfigOf(html)['CSS']).toBe(true);
  });

  it.each(['/', '/login', '/files/a/b.txt', '/settings/global', '/share/abc', '/api/nope', '/api/users/'])(
    'answers GET %s with the index',
    async (url) => {
      const { app } = await setup();
      const res = await app.inject({ url });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('window.FileBrowser = ');
    },
  );

  it('answers HEAD / with the index headers and no body', async () => {
    const { app } = await setup();
    const res = await app.inject({ method: 'HEAD', url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toBe('');
  });

  it('answers 404 when the build has no web app', async () => {
    const { app } = await setup({ assets: { read: () => undefined } });
    const res = await app.inject({ url: '/' });
    expect(res.statusCode).toBe(404);
    expect(res.body).toBe('404 Not Found\n');
  });

  it.each([
    ['a manifest of another version', { 'web-manifest.json': Buffer.from('{"version":2,"files":[]}') }, /not a version 1 web manifest/],
    ['an unrendered template', { 'index.html': readFileSync(join(__dirname, '../../web/index.html')) }, /build marker/],
    ['an unknown placeholder', { 'index.html': Buffer.from('<p>[{[ Secret ]}]</p>') }, /unknown placeholder Secret/],
  ])('refuses to start with %s', async (_name, extra, message) => {
    await expect(setup({ assets: memoryAssets(extra) })).rejects.toThrow(message);
  });
});
