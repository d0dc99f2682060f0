import type { AppDeps } from './app';
import type { FastifyInstance } from 'fastify';
import { createSessionTracker } from './accounts/sessions';
import { totpStepsOn } from './accounts/totp';
import { createThrottle, type Throttle } from './lib/throttle';
import { watchIdleMemory, type IdleMemory } from './lib/idle-memory';
import { releaseKeptChunks } from './http/chunk-pool';
import { registerTokens } from './plugins/tokens';
import { createAuthService } from './resources/auth/service';
import { archiveWorkerSource } from './archive/worker-source';
import { closeIdleArchiveWorkers } from './archive/worker-spawn';
import { createGateFactory } from './fs/gates';
import { createRawService } from './resources/raw/service';
import { createSearchService } from './resources/search/service';
import { createHookRunner } from './hooks/hooks';
import { createResourcesService } from './resources/resources/service';
import { createUsageService } from './resources/usage/service';
import { createTusService } from './resources/tus/service';
import { createUploadRegistry } from './tus/registry';
import { createPreviewService, type PreviewService } from './media/preview';
import type { GateFactory } from './fs/gates';
import type { HookRunner } from './hooks/hooks';
import type { RawService } from './resources/raw/service';
import type { RawFileServer } from './http/served';
import { createPreviewRouteService } from './resources/preview/service';
import { createSubtitleRouteService } from './resources/subtitle/service';
import { createSettingsService } from './resources/settings/service';
import { createCommandService } from './resources/command/service';
import { createPublicService } from './resources/public/service';
import { createUploadLinkService } from './resources/public/upload-service';
import { createStoreShareCounters } from './state/share-counters';
import { createSharesService } from './resources/shares/service';
import { createUsersService } from './resources/users/service';
import { createTokensService } from './resources/tokens/service';
import { createTotpService } from './resources/totp/service';
import type { Ephemeral } from './state/ephemeral';
import type { EpochChannel } from './state/epochs';
import { openSharedEphemeral } from './state/shared-ephemeral';
import { entryRecorder, type ActivityLog } from './activity/entry';
import { openActivityLog } from './activity/open-log';
import { pgPoolOf } from './state/store-pg';
import { createActivityService } from './resources/activity/service';
import { trashService } from './resources/trash/compose';
import { createDavService } from './resources/dav/service';
import type { DavDeps } from './resources/dav/context';
import { createBasicAuth } from './resources/dav/auth';
import { createDavLocks } from './resources/dav/locks';
import { createDavProperties } from './resources/dav/dead-props';
import { createOidcProvider } from './resources/oidc/provider';
import { createOidcService, type OidcService } from './resources/oidc/service';
import { realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { watchTreeChanges } from './fs/changes';
import { INDEX_WORKER } from './index/build-protocol';
import { startSearchIndex, type SearchIndex } from './index/search-index';
import { workerCode } from './lib/worker-code';
import { TRASH_DIR } from './fs/hidden';
import { composeQuota } from './quota/compose';
import type { QuotaGate } from './quota/admit';


/** Composes the services the route table hands to the resources; no route is registered here. */
export async function composeServices(app: FastifyInstance, deps: AppDeps) {
  const { ephemeral, epochs } = await sharedEphemeral(app, deps);
  const activityLog = activityLogOf(app, deps);
  const { sessions, throttle, tokens, auth, users, settings, totpSteps } = await accountServices(app, deps, { activityLog, ephemeral, epochs });
  const gates = await createGateFactory(deps.config);
  // Downloads keep read buffers for the next ones, an index build leaves garbage: both go when idle.
  const idle = giveMemoryBackWhenIdle(app);
  const raw = rawService(app, deps, gates);
  const index = await searchIndex(app, deps, idle);
  const search = createSearchService({ gates, store: deps.store, index });
  const quota = await composeQuota({ store: deps.store, gates, ephemeral, index, root: deps.config.root, cacheDir: deps.config.cacheDir });
  app.addHook('onClose', (_instance, done) => {
    quota.close();
    done();
  });
  // Event hooks (api.md §9) run only with exec enabled; settings are read at each operation.
  const hooks = createHookRunner({ enabled: deps.config.enableExec, settings: () => deps.store.data().settings, env: deps.env ?? {} });
  const { previews, preview, subtitle } = mediaServices(app, deps, { gates, raw });
  const trash = trashService(app, deps, { gates, hooks, previews, ephemeral });
  const resources = createResourcesService({ store: deps.store, config: deps.config, gates, hooks, previews, trash, quota, workerSource: archiveWorkerSource(deps.assets) });
  const usage = createUsageService({ store: deps.store, gates, quota });
  const { tus, registry } = tusService(app, deps, { gates, hooks, previews, quota, ephemeral });
  const shares = createSharesService({ store: deps.store, gates, config: deps.config });
  const counters = createStoreShareCounters(deps.store);
  app.addHook('onClose', async () => counters.flush());
  const publicAccess = createPublicService({ store: deps.store, gates, config: deps.config, links: shares, raw, throttle, ephemeral, counters });
  const uploadLinks = createUploadLinkService({ store: deps.store, gates, links: shares, throttle, ephemeral, counters, hooks, registry, quota, report: (err) => app.log.warn({ err }, 'after upload') });
  const command = createCommandService({ store: deps.store, gates, enabled: deps.config.enableExec, env: deps.env ?? {} });
  const activity = createActivityService({ log: activityLog });
  // API tokens and two-factor sign-in (beyond.md §4.1, §4.2): state in the store, failures in the one throttle.
  const apiTokens = createTokensService({ store: deps.store });
  const totp = createTotpService({ store: deps.store, throttle, totpSteps });
  const dav = davService(deps, { ephemeral, throttle, gates, hooks, raw, previews, trash, quota });
  const oidc = oidcService(app, deps, { ephemeral, sessions, throttle, auth, activityLog });
  return { apiTokens, totp, ephemeral, activityLog, activity, sessions, throttle, tokens, auth, users, settings, gates, raw, search, hooks, preview, subtitle, resources, usage, tus, shares, publicAccess, command, trash, dav, uploadLinks, oidc };
}

/** What composeServices hands to the route table. */
export type Services = Awaited<ReturnType<typeof composeServices>>;

/**
 * The shared-ephemeral store and the session-epoch channel of beyond.md §10, closed with the app:
 * on PostgreSQL when --database is a postgres:// URL, else in this process. A store passed in
 * (tests) is used as it is.
 */
async function sharedEphemeral(app: FastifyInstance, deps: AppDeps): Promise<{ ephemeral: Ephemeral; epochs: EpochChannel }> {
  const shared = openSharedEphemeral(deps.config.databaseUrl, (err) => app.log.warn({ err }, 'shared state connection'));
  app.addHook('onClose', async () => shared.close());
  // Serving starts once revocations announced by the other instances reach this one.
  await shared.listening();
  return { ephemeral: deps.ephemeral ?? shared.ephemeral, epochs: shared.epochs };
}

/** The activity log beside the database (beyond.md §8); the activity plugin closes it with the app. */
function activityLogOf(app: FastifyInstance, deps: AppDeps): ActivityLog {
  return openActivityLog({ location: deps.store.location, pg: pgPoolOf(deps.store), days: () => deps.store.data().settings.activityDays, onError: (err) => app.log.warn({ err }, 'activity log') });
}

type AccountParts = Pick<Awaited<ReturnType<typeof accountServices>>, 'sessions' | 'throttle' | 'auth'>;

/** OpenID Connect sign-in (beyond.md §4.3) when --oidc.issuer is set; discovery starts now, retried on use. */
function oidcService(app: FastifyInstance, deps: AppDeps, parts: AccountParts & { ephemeral: Ephemeral; activityLog: ActivityLog }): OidcService | undefined {
  const oidc = deps.config.oidc;
  if (!oidc) return undefined;
  const provider = createOidcProvider({ config: oidc, onDiscoveryError: (err) => app.log.warn(`OpenID provider ${oidc.issuer} not discovered (retried at the next sign-in): ${(err as Error).message}`) });
  return createOidcService({
    store: deps.store, root: deps.config.root, baseURL: deps.config.baseURL, oidc, provider, ephemeral: parts.ephemeral,
    sessions: parts.sessions, throttle: parts.throttle, issue: (user) => parts.auth.renew(user), endSessions: (id) => parts.auth.endSessions(id),
    warn: (message) => app.log.warn(message),
    record: entryRecorder(parts.activityLog),
  });
}

/**
 * The search index of beyond.md §7 when --indexInterval is not 0: built by a worker after the
 * start, told of every change made through filemgr (fs/changes.ts), closed with the app.
 */
async function searchIndex(app: FastifyInstance, deps: AppDeps, idle: IdleMemory): Promise<SearchIndex | undefined> {
  const { config } = deps;
  if (config.indexInterval <= 0) return undefined;
  const root = await realpath(config.root).catch(() => null);
  if (root === null) return undefined;
  const cache = config.cacheDir ? await realpath(config.cacheDir).catch(() => config.cacheDir) : '';
  const index = await startSearchIndex({
    root,
    dir: config.cacheDir ? join(config.cacheDir, 'index') : '',
    intervalMs: config.indexInterval,
    workerCode: workerCode(INDEX_WORKER, deps.assets),
    // The cache and the recycle bin are the server's own: never searched, never indexed.
    skip: [...(cache ? [cache] : []), join(root, TRASH_DIR)],
    log: { info: (message) => app.log.info(message), warn: (err, message) => app.log.warn({ err }, message) },
    // The build's garbage (and a finished worker's pooled pages) goes once the server is idle.
    onBuilt: () => idle.afterWork(),
  });
  const unwatch = watchTreeChanges((change) => index.changed(change));
  app.addHook('onClose', async () => {
    unwatch();
    await index.close();
  });
  return index;
}

/** After a burst of requests, memory goes back to the system once the server is idle (lib/idle-memory.ts). */
function giveMemoryBackWhenIdle(app: FastifyInstance): IdleMemory {
  const idle = watchIdleMemory(app.server, { idleMs: 3000, growthBytes: 24 * 2 ** 20, release: [releaseKeptChunks], pressure: { growthBytes: 128 * 2 ** 20, intervalMs: 5000 } });
  app.addHook('onClose', (_instance, done) => {
    idle.close();
    done();
  });
  return idle;
}

/** Tokens (@fastify/jwt), sign-in, users and settings; one throttle for every password check (api.md §14). */
async function accountServices(app: FastifyInstance, deps: AppDeps, parts: { activityLog: ActivityLog; ephemeral: Ephemeral; epochs: EpochChannel }) {
  const { activityLog } = parts;
  // Revocations told by every instance through the epoch channel; failures counted on the shared store.
  const sessions = createSessionTracker(parts.epochs, (err) => app.log.warn({ err }, 'user update not announced'));
  app.addHook('onClose', (_instance, done) => {
    sessions.close();
    done();
  });
  const throttle = createThrottle({ windows: parts.ephemeral });
  const tokens = await registerTokens(app, deps.store.data().settings.key);
  // One record of used TOTP steps, on the shared-ephemeral store: sign-in's and the two-factor service's.
  const totpSteps = totpStepsOn(parts.ephemeral);
  const auth = createAuthService({ store: deps.store, config: deps.config, sessions, throttle, totpSteps, tokens, env: deps.env, activity: entryRecorder(activityLog) });
  const users = createUsersService({ store: deps.store, config: deps.config, sessions });
  const settings = createSettingsService({ store: deps.store, config: deps.config });
  return { sessions, throttle, tokens, auth, users, settings, totpSteps };
}

/** Raw downloads and archives (api.md §3.11). */
function rawService(app: FastifyInstance, deps: AppDeps, gates: GateFactory): RawService {
  // A reader worker left waiting for the next archive (archive/worker-spawn.ts) ends with the server.
  app.addHook('onClose', async () => closeIdleArchiveWorkers());
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
function tusService(app: FastifyInstance, deps: AppDeps, parts: { gates: GateFactory; hooks: HookRunner; previews: PreviewService; quota: QuotaGate; ephemeral: Ephemeral }) {
  // Which upload is live, its offset mid-PATCH and its lock are shared (beyond.md §10); the bytes are on the root.
  const registry = createUploadRegistry({ ephemeral: parts.ephemeral, onError: (err) => app.log.warn({ err }, 'upload registry') });
  app.addHook('onClose', (_instance, done) => {
    registry.close();
    done();
  });
  const { gates, hooks, previews, quota } = parts;
  return { tus: createTusService({ store: deps.store, gates, hooks, previews, quota, registry, report: (err) => app.log.warn({ err }, 'after upload') }), registry };
}

/** WebDAV (beyond.md §1): Basic auth through the sign-in throttle, locks on the shared-ephemeral store, dead properties in the state. */
function davService(deps: AppDeps, parts: { ephemeral: Ephemeral; throttle: Throttle; gates: GateFactory; hooks: HookRunner; raw: RawService; previews: PreviewService; trash: DavDeps['trash']; quota: DavDeps['quota'] }) {
  const { raw } = parts;
  const rawFile: RawFileServer = (gate, r) => raw.serve(gate, { ...r, query: r.inline ? { inline: 'true' } : {}, signal: new AbortController().signal, onSkip: () => undefined });
  return createDavService({
    store: deps.store,
    baseURL: deps.config.baseURL,
    disabled: deps.config.disableWebDAV,
    gates: parts.gates,
    hooks: parts.hooks,
    rawFile,
    previews: parts.previews,
    auth: createBasicAuth({ store: deps.store, throttle: parts.throttle }),
    locks: createDavLocks(parts.ephemeral),
    props: createDavProperties(deps.store),
    trash: parts.trash,
    quota: parts.quota,
  });
}
