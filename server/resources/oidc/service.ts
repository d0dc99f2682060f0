import { createHash, timingSafeEqual } from 'node:crypto';
import { oidcUser } from '../../accounts/oidc-user';
import type { SessionTracker } from '../../accounts/sessions';
import type { OidcConfig } from '../../config';
import { AppError, isAppError } from '../../errors';
import type { Throttle } from '../../lib/throttle';
import type { Ephemeral } from '../../state/ephemeral';
import type { UserRecord } from '../../state/schema';
import type { Store } from '../../state/store';
import { OidcFailure } from './failure';
import { FLOW_COOKIE, FLOW_TTL_MS, cookieValue, flowCookie, openFlow, sealFlow, type FlowState } from './flow-cookie';
import { ephemeralHandover, markFlowUsed, type SignInHandover } from './handover';
import { oidcClient, type OidcProvider } from './provider';
import type { RecordEntry } from '../../activity/entry';

export interface OidcServiceDeps {
  store: Store;
  root: string;
  baseURL: string;
  oidc: OidcConfig;
  provider: OidcProvider;
  ephemeral: Ephemeral;
  sessions: SessionTracker;
  throttle: Throttle;
  /** Issues filemgr's token for a user (the same signing and session epochs as /api/login). */
  issue: (user: UserRecord) => string;
  /** Ends every session of a user (the session epoch, api.md §14). */
  endSessions: (id: number) => Promise<void>;
  /** Logs why a sign-in failed (never a secret). */
  warn: (message: string) => void;
  /** The activity log's recorder: every sign-in through the provider, by method (beyond.md §8). */
  record?: RecordEntry;
  now?: () => number;
}

/** A browser request to one of the OIDC routes, as the service needs it. */
export interface BrowserRequest {
  /** The request's public origin (lib/request-origin.ts), undefined when its Host is unusable. */
  origin: string | undefined;
  cookie: string | undefined;
  address: string;
}

/** Where to send the browser, and the flow cookie to set (or clear). */
export interface BrowserAnswer {
  location: string;
  cookie: string;
}

/** The provider's answer on the callback: `raw` is the whole query string, as received. */
export interface CallbackQuery {
  state?: string;
  error?: string;
  raw: string;
}

export interface OidcService {
  /** GET /api/auth/oidc/login: a fresh flow, and the provider's authorization address. */
  start(req: BrowserRequest, redirect: string | undefined): Promise<BrowserAnswer>;
  /** GET /api/auth/oidc/callback: the browser signed in at its target, or back on the login page with the reason. */
  finish(req: BrowserRequest, query: CallbackQuery): Promise<BrowserAnswer>;
  /** POST /api/auth/oidc/token: filemgr's token for a one-time hand-over code (403 otherwise). */
  redeem(code: string): Promise<string>;
  /** POST /api/auth/oidc/logout: ends the user's sessions; the provider's end-session address or ''. */
  logout(user: UserRecord, origin: string | undefined): Promise<string>;
}

/**
 * A same-origin app path to land on: an absolute path that no browser reads as another host
 * (`//x`, `/\x`, whitespace or control characters that browsers drop) and not an API route;
 * anything else lands on the app's root.
 */
export function landingPath(redirect: string | undefined): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (!redirect || !redirect.startsWith('/') || /[\\\u0000-\u0020\u007f]/.test(redirect)) return '/';
  const url = new URL(redirect, 'http://filemgr.invalid');
  if (url.origin !== 'http://filemgr.invalid' || url.pathname.startsWith('/api/')) return '/';
  return `${url.pathname}${url.search}`;
}

function sameText(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}

function failureOf(err: unknown): OidcFailure {
  if (err instanceof OidcFailure) return err;
  if (isAppError(err) && err.code === 'too_many_requests') return new OidcFailure('throttled', 'too many failed sign-ins from this address');
  throw err;
}

/** The failures that point at tampering and count in the sign-in throttle (not a cancel or an outage). */
const COUNTED = new Set(['state', 'code', 'token']);

interface FlowContext {
  deps: OidcServiceDeps;
  now: () => number;
  handover: SignInHandover;
  callbackPath: string;
}

function cookieOf(ctx: FlowContext, origin: string, sealed: { value: string; maxAgeS: number }): string {
  return flowCookie(sealed.value, { path: `${ctx.deps.baseURL}/api/auth/oidc`, secure: origin.startsWith('https:'), maxAgeS: sealed.maxAgeS });
}

/** Back to the login page with the reason (and the target, for the next try); the flow cookie is cleared. */
function toLogin(ctx: FlowContext, req: BrowserRequest, failure: OidcFailure & { redirect?: string }): BrowserAnswer {
  ctx.deps.warn(`${failure.message} (from ${req.address})`);
  const redirect = failure.redirect ?? '/';
  const query = new URLSearchParams({ oidc_error: failure.reason, ...(redirect !== '/' ? { redirect } : {}) });
  return { location: `${ctx.deps.baseURL}/login?${query.toString()}`, cookie: cookieOf(ctx, req.origin ?? '', { value: '', maxAgeS: 0 }) };
}

const withTarget = (failure: OidcFailure, redirect: string | undefined): OidcFailure & { redirect?: string } =>
  Object.assign(failure, redirect === undefined ? {} : { redirect });

async function startFlow(ctx: FlowContext, req: BrowserRequest, redirect: string | undefined): Promise<BrowserAnswer> {
  const target = landingPath(redirect);
  if (!req.origin) throw new AppError('bad_request', 'the Host header is missing or malformed');
  const flow: FlowState = {
    state: oidcClient().randomState(), nonce: oidcClient().randomNonce(), verifier: oidcClient().randomPKCECodeVerifier(),
    redirect: target, origin: req.origin, expires: ctx.now() + FLOW_TTL_MS,
  };
  try {
    const challenge = await oidcClient().calculatePKCECodeChallenge(flow.verifier);
    const url = await ctx.deps.provider.authorizationUrl({ redirectUri: `${req.origin}${ctx.callbackPath}`, state: flow.state, nonce: flow.nonce, challenge });
    return { location: url.href, cookie: cookieOf(ctx, req.origin, { value: sealFlow(flow, ctx.deps.store.data().settings.key), maxAgeS: FLOW_TTL_MS / 1000 }) };
  } catch (err) {
    return toLogin(ctx, req, withTarget(failureOf(err), target));
  }
}

/** The code exchanged, the user found or created, filemgr's token issued and handed over at the target. */
async function signIn(ctx: FlowContext, flow: FlowState, raw: string): Promise<BrowserAnswer & { user: string }> {
  const { deps } = ctx;
  const callbackUrl = new URL(`${flow.origin}${ctx.callbackPath}?${raw}`);
  const claims = await deps.provider.exchange({ callbackUrl, state: flow.state, nonce: flow.nonce, verifier: flow.verifier });
  const result = await oidcUser({ store: deps.store, root: deps.root, sessions: deps.sessions, now: ctx.now }, claims, deps.oidc);
  if (!result.ok) throw new OidcFailure(result.reason, result.detail);
  const code = await ctx.handover.issue(deps.issue(result.user));
  return { location: `${deps.baseURL}${flow.redirect}#oidc=${code}`, cookie: cookieOf(ctx, flow.origin, { value: '', maxAgeS: 0 }), user: result.user.username };
}

async function finishFlow(ctx: FlowContext, req: BrowserRequest, query: CallbackQuery): Promise<BrowserAnswer> {
  const { deps } = ctx;
  const flow = openFlow(cookieValue(req.cookie, FLOW_COOKIE), deps.store.data().settings.key, ctx.now());
  try {
    await deps.throttle.check(req.address, '');
    if (!flow || !query.state || !sameText(query.state, flow.state)) throw new OidcFailure('state', flow ? 'the state is not this browser\'s' : 'no flow cookie (expired, or another browser)');
    if (!(await markFlowUsed(deps.ephemeral, flow.state, FLOW_TTL_MS))) throw new OidcFailure('code', 'this callback was already used');
    if (query.error !== undefined) throw new OidcFailure('denied', `the provider answered ${query.error}`);
    const { user, ...answer } = await signIn(ctx, flow, query.raw);
    await deps.throttle.succeed(req.address, '');
    deps.record?.({ action: 'login', user, address: req.address, detail: 'oidc', result: 'ok', status: 200 });
    return answer;
  } catch (err) {
    const failure = failureOf(err);
    if (COUNTED.has(failure.reason)) await deps.throttle.fail(req.address, '');
    deps.record?.({ action: 'login', address: req.address, detail: `oidc: ${failure.reason}`, result: 'failed', status: 401 });
    return toLogin(ctx, req, withTarget(failure, flow?.redirect));
  }
}

/** OpenID Connect sign-in (beyond.md §4.3): authorization code + PKCE, verified ID token, hand-over to the app. */
export function createOidcService(deps: OidcServiceDeps): OidcService {
  const ctx: FlowContext = { deps, now: deps.now ?? Date.now, handover: ephemeralHandover(deps.ephemeral), callbackPath: `${deps.baseURL}/api/auth/oidc/callback` };
  return {
    start: (req, redirect) => startFlow(ctx, req, redirect),
    finish: (req, query) => finishFlow(ctx, req, query),
    async redeem(code) {
      const token = await ctx.handover.redeem(code);
      if (token === undefined) throw new AppError('forbidden');
      return token;
    },
    async logout(user, origin) {
      await deps.endSessions(user.id);
      const url = origin ? await deps.provider.endSessionUrl(`${origin}${deps.baseURL}/login`) : undefined;
      return url?.href ?? '';
    },
  };
}
