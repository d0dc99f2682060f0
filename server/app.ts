import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { ServerConfig } from './config';
import type { AssetSource } from './lib/assets';
import { errorHandlerPlugin } from './plugins/error-handler';
import { notFoundPlugin } from './plugins/not-found';
import { securityHeadersPlugin } from './plugins/security-headers';
import { createWebAssets } from './plugins/web-assets';
import { healthRoutes } from './resources/health/routes';
import type { Store } from './state/store';

export interface AppDeps {
  store: Store;
  config: ServerConfig;
  assets: AssetSource;
  /** Pino options or false (tests). */
  logger?: FastifyServerOptions['logger'];
  /** TLS options when serving https. */
  https?: { cert: Buffer; key: Buffer };
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
    // Paths are canonicalised by the path gate; the router must see them unchanged.
    ignoreDuplicateSlashes: false,
    return503OnClosing: true,
    requestTimeout: 0,
    bodyLimit: 1024 * 1024,
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
  const web = createWebAssets({ store: deps.store, config: deps.config, assets: deps.assets });
  await app.register(notFoundPlugin, { sendIndex: web.sendIndex });

  // Public routes.
  app.register(healthRoutes);
  app.register(web.routes);

  await app.ready();
  return app;
}
