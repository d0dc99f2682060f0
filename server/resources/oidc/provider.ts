import type * as Client from 'openid-client';
import type { OidcConfig } from '../../config';
import { OidcFailure } from './failure';
import { loadLater } from '../../lib/load-later';

/** openid-client, loaded by the first sign-in through the provider instead of at start-up (idle RSS, P2). */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (load-later.ts)
export const oidcClient = loadLater<typeof Client>('openid-client', () => require('openid-client'));

/** What the callback hands to the provider: the URL the browser came back to and the flow's secrets. */
export interface CodeExchange {
  /** `<origin><baseURL>/api/auth/oidc/callback?<the provider's query>`: also the redirect_uri. */
  callbackUrl: URL;
  state: string;
  nonce: string;
  verifier: string;
}

/** The verified claims of a sign-in: the ID token's, completed from UserInfo when needed. */
export type SignInClaims = Readonly<Record<string, unknown>>;

/** The OpenID provider as filemgr uses it (openid-client underneath). */
export interface OidcProvider {
  /** The authorization endpoint address for one flow (code + PKCE S256 + state + nonce). */
  authorizationUrl(params: { redirectUri: string; state: string; nonce: string; challenge: string }): Promise<URL>;
  /** Redeems the code (client_secret_basic) and verifies the ID token: signature, iss, aud, exp, nonce. */
  exchange(flow: CodeExchange): Promise<SignInClaims>;
  /** The provider's end_session_endpoint for this client, or undefined when it has none (or is down). */
  endSessionUrl(postLogoutRedirectUri: string): Promise<URL | undefined>;
}

/** Options of the provider client; `onDiscoveryError` reports a failed discovery (it is retried on next use). */
export interface ProviderOptions {
  config: OidcConfig;
  onDiscoveryError: (err: unknown) => void;
}

/** Seconds each request to the provider may take (discovery, token, JWKS, UserInfo). */
const TIMEOUT_S = 10;

function discover(config: OidcConfig): Promise<Client.Configuration> {
  const insecure = new URL(config.issuer).protocol === 'http:';
  return oidcClient().discovery(new URL(config.issuer), config.clientId, undefined, oidcClient().ClientSecretBasic(config.clientSecret), {
    // http: passed accounts/oidc-config.ts only for a provider on a loopback address.
    ...(insecure ? { execute: [oidcClient().allowInsecureRequests] } : {}),
    timeout: TIMEOUT_S,
  });
}

/**
 * Discovery once, lazily: started at once, and when the provider is down the failure is
 * reported and the next use tries again, so the server starts and answers without its provider.
 */
function lazyDiscovery(opts: ProviderOptions): () => Promise<Client.Configuration> {
  let pending: Promise<Client.Configuration> | undefined;
  const get = (): Promise<Client.Configuration> => {
    pending ??= discover(opts.config).catch((err: unknown) => {
      pending = undefined;
      opts.onDiscoveryError(err);
      throw new OidcFailure('unavailable', 'discovery failed', err);
    });
    return pending;
  };
  get().catch(() => undefined);
  return get;
}

/** The reason of a failed code exchange, from openid-client's error classes. */
function exchangeFailure(err: unknown): OidcFailure {
  if (err instanceof OidcFailure) return err;
  if (err instanceof oidcClient().AuthorizationResponseError) return new OidcFailure('denied', `the provider answered ${err.error}`, err);
  if (err instanceof oidcClient().ResponseBodyError) return new OidcFailure('code', `the token endpoint refused the code: ${err.error}`, err);
  if (err instanceof TypeError) return new OidcFailure('unavailable', 'the provider could not be reached', err);
  const code = err instanceof oidcClient().ClientError && err.code ? ` (${err.code})` : '';
  return new OidcFailure('token', `the ID token was refused${code}: ${(err as Error).message}`, err);
}

const missing = (claims: SignInClaims, name: string): boolean => name !== '' && claims[name] === undefined;

async function completedClaims(config: Client.Configuration, oidc: OidcConfig, tokens: Client.TokenEndpointResponse & Client.TokenEndpointResponseHelpers): Promise<SignInClaims> {
  const idClaims = tokens.claims();
  if (!idClaims) throw new OidcFailure('token', 'the provider sent no ID token');
  const wanted = missing(idClaims, oidc.usernameClaim) || (oidc.adminGroup !== '' && missing(idClaims, oidc.groupsClaim));
  // Some providers (Authelia by default) put profile and group claims in UserInfo only.
  if (!wanted || !config.serverMetadata().userinfo_endpoint) return idClaims;
  const info = await oidcClient().fetchUserInfo(config, tokens.access_token, idClaims.sub);
  // The verified ID token wins; UserInfo (its `sub` checked equal) only fills the gaps.
  return { ...info, ...idClaims };
}

/** The provider client of beyond.md §4.3 for `opts.config`. */
export function createOidcProvider(opts: ProviderOptions): OidcProvider {
  const configuration = lazyDiscovery(opts);
  return {
    async authorizationUrl(p) {
      const config = await configuration();
      return oidcClient().buildAuthorizationUrl(config, {
        redirect_uri: p.redirectUri, scope: opts.config.scopes, state: p.state, nonce: p.nonce,
        code_challenge: p.challenge, code_challenge_method: 'S256', response_type: 'code',
      });
    },
    async exchange(flow) {
      try {
        const config = await configuration();
        const checks = { pkceCodeVerifier: flow.verifier, expectedState: flow.state, expectedNonce: flow.nonce, idTokenExpected: true };
        const tokens = await oidcClient().authorizationCodeGrant(config, flow.callbackUrl, checks);
        return await completedClaims(config, opts.config, tokens);
      } catch (err) {
        throw exchangeFailure(err);
      }
    },
    async endSessionUrl(postLogoutRedirectUri) {
      const config = await configuration().catch(() => undefined);
      if (!config?.serverMetadata().end_session_endpoint) return undefined;
      return oidcClient().buildEndSessionUrl(config, { client_id: opts.config.clientId, post_logout_redirect_uri: postLogoutRedirectUri });
    },
  };
}
