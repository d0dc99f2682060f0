import websocketPlugin from '@fastify/websocket';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { ServerConfig } from './config';
import type { AssetSource } from './lib/assets';
import { errorHandlerPlugin } from './plugins/error-handler';
import { notFoundPlugin } from './plugins/not-found';
import { OneLinePerRequest } from './plugins/request-log';
import { securityHeadersPlugin } from './plugins/security-headers';
import { createWebAssets } from './plugins/web-assets';
import { createSessionTracker } from './accounts/sessions';
import { addressResolver, untrustedProxyWatch } from './lib/client-address';
import { lazySchemaController } from './lib/lazy-schemas';
import { createThrottle } from './lib/throttle';
import { watchIdleMemory } from './lib/idle-memory';
import { releaseKeptChunks } from './http/chunk-pool';
import { authPlugin } from './plugins/auth';
import { registerTokens } from './plugins/tokens';
import { authRoutes, sessionRoutes } from './resources/auth/routes';
import { createAuthService } from './resources/auth/service';
import { archiveWorkerSource } from './archive/worker-source';
import { closeIdleArchiveWorkers } from './archive/worker-spawn';
import { createGateFactory } from './fs/gates';
import { healthRoutes } from './resources/health/routes';
import { rawRoutes } from './resources/raw/routes';
import { createRawService } from './resources/raw/service';
import { searchRoutes } from './resources/search/routes';
import { createSearchService } from './resources/search/service';
import { createHookRunner } from './hooks/hooks';
import { resourcesRoutes } from './resources/resources/routes';
import { createResourcesService } from './resources/resources/service';
import { usageRoutes } from './resources/usage/routes';
import { createUsageService } from './resources/usage/service';
import { settingsRoutes } from './resources/settings/routes';
import { tusRoutes } from './resources/tus/routes';
import { createTusService } from './resources/tus/service';
import { createUploadRegistry } from './tus/registry';
import { createPreviewService, type PreviewService } from './media/preview';
import type { GateFactory } from './fs/gates';
import type { HookRunner } from './hooks/hooks';
import type { RawService } from './resources/raw/service';
import { previewRoutes } from './resources/preview/routes';
import type { RawFileServer } from './http/served';
import { createPreviewRouteService } from './resources/preview/service';
import { subtitleRoutes } from './resources/subtitle/routes';
import { createSubtitleRouteService } from './resources/subtitle/service';
import { createSettingsService } from './resources/settings/service';
import { usersRoutes } from './resources/users/routes';
import { commandRoutes } from './resources/command/routes';
import { createCommandService } from './resources/command/service';
import { publicRoutes } from './resources/public/routes';
import { createPublicService } from './resources/public/service';
import { sharesRoutes } from './resources/shares/routes';
import { createSharesService } from './resources/shares/service';
import { createUsersService } from './resources/users/service';
import type { Store } from './state/store';

export interface AppDeps {
  store: Store;
  config: ServerConfig;
  assets: AssetSource;
  /** Pino options or false (tests). */
  logger?: FastifyServerOptions['logger'];
  /** TLS options when serving https. */
  https?: { cert: Buffer; key: Buffer };
  /** The server's environment (cli/ passes process.env), handed to programs the server runs. */
  env?: Readonly<Record<string, string | undefined>>;
}

/** Strips the configured base URL; requests without it are routed unchanged (api.md §1.1). */
function baseUrlRewriter(baseURL: string): (url: string) => string {
  if (!baseURL) return (url) => url;
  return (url) => {
    if (!url.startsWith(baseURL)) return url;
    const rest = url.slice(baseURL.length);
    if (rest === '') return '/';
    return rest.startsWith('/') || rest.startsWith('?') ? (rest.startsWith('?') ? `/${rest}` : rest) : url;
  };
}

function fastifyOptions(deps: AppDeps): FastifyServerOptions {
  const rewrite = baseUrlRewriter(deps.config.baseURL);
  return {
    logger: deps.logger ?? false,
    // One line per request, at the end (plugins/request-log.ts), instead of Fastify's two.
    logController: new OneLinePerRequest(),
    // Paths are canonicalised by the path gate; the router must see them unchanged.
    routerOptions: { ignoreDuplicateSlashes: false },
    return503OnClosing: true,
    requestTimeout: 0,
    bodyLimit: 1024 * 1024,
    // Route schemas compile on first use: compiling all of them was most of the start-up time.
    schemaController: lazySchemaController(),
    rewriteUrl: (req) => rewrite(req.url ?? '/'),
    ...(deps.https ? { https: { ...deps.https, minVersion: 'TLSv1.2' as const } } : {}),
  };
}

/**
 * Builds the application: cross-cutting plugins, then THE route table: public routes first,
 * then one encapsulated scope in which every route needs a signed-in user.
 */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify(fastifyOptions(deps));
  await app.register(errorHandlerPlugin);
  await app.register(securityHeadersPlugin);
  // A CLI command (config set, users rm ...) may have changed the database file since the last
  // request: every request, the page and public ones included, sees it. One stat when unchanged.
  app.addHook('onRequest', async () => {
    await deps.store.refresh();
  });
  const web = createWebAssets({ store: deps.store, config: deps.config, assets: deps.assets });
  await app.register(notFoundPlugin, { sendIndex: web.sendIndex });
  // WebSocket upgrades go through the router and its hooks (auth first); only /api/command uses it.
  await app.register(websocketPlugin, { options: { maxPayload: 64 * 1024 } });

  const { sessions, throttle, tokens, auth, users, settings } = await accountServices(app, deps);
  const addressOf = addressResolver(deps.config.trustedProxies);
  const watchProxy = untrustedProxyWatch(deps.config.trustedProxies, (message) => app.log.warn(message));
  app.addHook('onRequest', (request, _reply, done) => {
    watchProxy(request);
    done();
  });
  const gates = await createGateFactory(deps.config);
  const raw = rawService(app, deps, gates);
  const search = createSearchService({ gates, store: deps.store });
  // Event hooks (api.md §9) run only with exec enabled; settings are read at each operation.
  const hooks = createHookRunner({ enabled: deps.config.enableExec, settings: () => deps.store.data().settings, env: deps.env ?? {} });
  const { previews, preview, subtitle } = mediaServices(app, deps, { gates, raw });
  const resources = createResourcesService({ store: deps.store, config: deps.config, gates, hooks, previews });
  const usage = createUsageService({ store: deps.store, gates });
  const tus = tusService(app, deps, { gates, hooks, previews });

  const shares = createSharesService({ store: deps.store, gates, config: deps.config });
  const publicAccess = createPublicService({ store: deps.store, gates, config: deps.config, links: shares, raw, throttle });
  const command = createCommandService({ store: deps.store, gates, enabled: deps.config.enableExec, env: deps.env ?? {} });

  // Public routes.
  app.register(healthRoutes);
  app.register(web.routes);
  app.register(authRoutes, { auth, addressOf });
  app.register(publicRoutes, { public: publicAccess, addressOf });

  // Signed-in routes: everything registered in this scope needs a valid token (plugins/auth.ts).
  app.register(async (signedIn) => {
    await signedIn.register(authPlugin, { store: deps.store, sessions, tokens });
    signedIn.register(sessionRoutes, { auth });
    signedIn.register(usersRoutes, { users });
    signedIn.register(settingsRoutes, { settings });
    signedIn.register(rawRoutes, { raw });
    signedIn.register(searchRoutes, { search });
    signedIn.register(resourcesRoutes, { resources });
    signedIn.register(usageRoutes, { usage });
    signedIn.register(sharesRoutes, { shares });
    signedIn.register(commandRoutes, { command });
    signedIn.register(tusRoutes, { tus, baseURL: deps.config.baseURL });
    signedIn.register(previewRoutes, { preview });
    signedIn.register(subtitleRoutes, { subtitle });
  });

  await app.ready();
  return app;
}

/** After a burst of requests, memory goes back to the system once the server is idle (lib/idle-memory.ts). */
function giveMemoryBackWhenIdle(app: FastifyInstance): void {
  const idle = watchIdleMemory(app.server, { idleMs: 3000, growthBytes: 24 * 2 ** 20, release: [releaseKeptChunks] });
  app.addHook('onClose', (_instance, done) => {
    idle.close();
    done();
  });
}

/** Tokens (@fastify/jwt), sign-in, users and settings; one throttle for every password check (api.md §14). */
async function accountServices(app: FastifyInstance, deps: AppDeps) {
  const sessions = createSessionTracker();
  const throttle = createThrottle();
  const tokens = await registerTokens(app, deps.store.data().settings.key);
  const auth = createAuthService({ store: deps.store, config: deps.config, sessions, throttle, tokens, env: deps.env });
  const users = createUsersService({ store: deps.store, config: deps.config, sessions });
  const settings = createSettingsService({ store: deps.store, config: deps.config });
  return { sessions, throttle, tokens, auth, users, settings };
}

/** Raw downloads and archives (api.md §3.11). */
function rawService(app: FastifyInstance, deps: AppDeps, gates: GateFactory): RawService {
  // A reader worker left waiting for the next archive (archive/worker-spawn.ts) ends with the server.
  app.addHook('onClose', async () => closeIdleArchiveWorkers());
  // Downloads keep read buffers for the next ones: they are dropped when the server goes idle.
  giveMemoryBackWhenIdle(app);
  return createRawService({ gates, store: deps.store, workerSource: archiveWorkerSource(deps.assets) });
}

/** Previews and subtitles (api.md §3.12, §3.13): the --imageProcessors limit, the --cacheDir cache, raw files. */
function mediaServices(app: FastifyInstance, deps: AppDeps, parts: { gates: GateFactory; raw: RawService }) {
  const { gates, raw } = parts;
  const previews = createPreviewService({ processors: deps.config.imageProcessors, cacheDir: deps.config.cacheDir || undefined, onCacheError: (err) => app.log.warn({ err }, 'preview cache') });
  // Originals are served exactly as GET /api/raw serves them (a file: no archive walk to abort).
  const rawFile: RawFileServer = (gate, r) => raw.serve(gate, { ...r, query: r.inline ? { inline: 'true' } : {}, signal: new AbortController().signal, onSkip: () => undefined });
  const preview = createPreviewRouteService({ store: deps.store, gates, config: deps.config, previews, rawFile });
  return { previews, preview, subtitle: createSubtitleRouteService({ store: deps.store, gates, rawFile }) };
}

/** tus uploads (api.md §3.17): unfinished uploads wait for a restart on disk; their timers stop with the app. */
function tusService(app: FastifyInstance, deps: AppDeps, parts: { gates: GateFactory; hooks: HookRunner; previews: PreviewService }) {
  const registry = createUploadRegistry({ onError: (err) => app.log.warn({ err }, 'expired upload not removed') });
  app.addHook('onClose', (_instance, done) => {
    registry.close();
    done();
  });
  return createTusService({ store: deps.store, ...parts, registry, report: (err) => app.log.warn({ err }, 'after upload') });
}
