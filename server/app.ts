import websocketPlugin from '@fastify/websocket';
import Fastify, { type FastifyInstance, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import type { ServerConfig } from './config';
import type { AssetSource } from './lib/assets';
import { errorHandlerPlugin } from './plugins/error-handler';
import { notFoundPlugin } from './plugins/not-found';
import { OneLinePerRequest } from './plugins/request-log';
import { securityHeadersPlugin } from './plugins/security-headers';
import { createWebAssets } from './plugins/web-assets';
import { addressResolver, untrustedProxyWatch } from './lib/client-address';
import { lazySchemaController } from './lib/lazy-schemas';
import { authPlugin } from './plugins/auth';
import { authRoutes, sessionRoutes } from './resources/auth/routes';
import { healthRoutes } from './resources/health/routes';
import { rawRoutes } from './resources/raw/routes';
import { searchRoutes } from './resources/search/routes';
import { resourcesRoutes } from './resources/resources/routes';
import { usageRoutes } from './resources/usage/routes';
import { settingsRoutes } from './resources/settings/routes';
import { tusRoutes } from './resources/tus/routes';
import { previewRoutes } from './resources/preview/routes';
import { subtitleRoutes } from './resources/subtitle/routes';
import { usersRoutes } from './resources/users/routes';
import { commandRoutes } from './resources/command/routes';
import { publicRoutes } from './resources/public/routes';
import { uploadLinkRoutes, uploadLinkTusRoutes } from './resources/public/upload-routes';
import { sharesRoutes } from './resources/shares/routes';
import { activityRoutes } from './resources/activity/routes';
import { activityPlugin } from './plugins/activity';
import { tokensRoutes } from './resources/tokens/routes';
import { totpRoutes } from './resources/totp/routes';
import { trashRoutes } from './resources/trash/routes';
import { davRoutes } from './resources/dav/routes';
import { oidcRoutes, oidcSessionRoutes } from './resources/oidc/routes';
import { originResolver } from './lib/request-origin';
import type { Store } from './state/store';
import { type Ephemeral } from './state/ephemeral';

import { composeServices, type Services } from './app-services';

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
  /** The shared-ephemeral store (locks, counters, rate windows); in-process when absent. */
  ephemeral?: Ephemeral;
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
 * Builds the application: cross-cutting plugins, the services (app-services.ts), then THE route
 * table: public routes first, then one encapsulated scope in which every route needs a signed-in
 * user.
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
  const addressOf = addressResolver(deps.config.trustedProxies);
  const watchProxy = untrustedProxyWatch(deps.config.trustedProxies, (message) => app.log.warn(message));
  app.addHook('onRequest', (request, _reply, done) => {
    watchProxy(request);
    done();
  });
  const s = await composeServices(app, deps);
  // Before any route: its hooks draft and complete the activity entry of every change (beyond.md §8).
  await app.register(activityPlugin, { log: s.activityLog, store: deps.store, addressOf });

  // Public routes.
  app.register(healthRoutes);
  app.register(web.routes);
  app.register(authRoutes, { auth: s.auth, addressOf });
  app.register(publicRoutes, { public: s.publicAccess, addressOf });
  app.register(davRoutes, { dav: s.dav, addressOf });
  app.register(uploadLinkRoutes, { uploads: s.uploadLinks, addressOf, baseURL: deps.config.baseURL });
  app.register(uploadLinkTusRoutes, { uploads: s.uploadLinks, addressOf, baseURL: deps.config.baseURL });
  const originOf = originResolver(deps.config.trustedProxies);
  if (s.oidc) app.register(oidcRoutes, { oidc: s.oidc, addressOf, originOf });

  app.register(async (signedIn) => signedInRoutes(signedIn, deps, { ...s, addressOf }));
  await app.ready();
  return app;
}

/** Signed-in routes: everything registered in this scope needs a valid token (plugins/auth.ts). */
async function signedInRoutes(signedIn: FastifyInstance, deps: AppDeps, s: Services & { addressOf: (request: FastifyRequest) => string }): Promise<void> {
  await signedIn.register(authPlugin, { store: deps.store, sessions: s.sessions, tokens: s.tokens, apiTokens: { throttle: s.throttle, addressOf: s.addressOf } });
  signedIn.register(tokensRoutes, { tokens: s.apiTokens });
  signedIn.register(totpRoutes, { totp: s.totp, addressOf: s.addressOf });
  signedIn.register(sessionRoutes, { auth: s.auth });
  signedIn.register(usersRoutes, { users: s.users });
  signedIn.register(settingsRoutes, { settings: s.settings });
  signedIn.register(rawRoutes, { raw: s.raw });
  signedIn.register(searchRoutes, { search: s.search });
  signedIn.register(resourcesRoutes, { resources: s.resources });
  signedIn.register(usageRoutes, { usage: s.usage });
  signedIn.register(sharesRoutes, { shares: s.shares });
  signedIn.register(trashRoutes, { trash: s.trash });
  signedIn.register(commandRoutes, { command: s.command });
  signedIn.register(tusRoutes, { tus: s.tus, baseURL: deps.config.baseURL });
  signedIn.register(previewRoutes, { preview: s.preview });
  signedIn.register(subtitleRoutes, { subtitle: s.subtitle });
  signedIn.register(activityRoutes, { activity: s.activity });
  if (s.oidc) signedIn.register(oidcSessionRoutes, { oidc: s.oidc, originOf: originResolver(deps.config.trustedProxies) });
}
