import { createPrivateKey, generateKeyPairSync, sign, type JsonWebKey } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';

/** Test accounts: the login typed into the provider's form is the account id. */
export const OIDC_ACCOUNTS: Readonly<Record<string, Record<string, unknown>>> = {
  alice: { preferred_username: 'alice', name: 'Alice', email: 'alice@example.test', groups: ['staff', 'filemgr-admins'] },
  bob: { preferred_username: 'bob', name: 'Bob', email: 'bob@example.test', groups: ['staff'] },
  carol: { preferred_username: 'carol', name: 'Carol', email: 'carol@example.test', groups: 'staff' },
  nameless: { name: 'No Username', groups: [] },
};

export const OIDC_CLIENT = { id: 'filemgr-test', secret: 'filemgr-test-secret-0123456789abcdef' } as const;
export const OIDC_ADMIN_GROUP = 'filemgr-admins';
export const OIDC_SCOPES = 'openid profile email groups';
/** The page a held callback shows instead (holdNextCallback). */
export const HELD_TEXT = 'callback held by the test';

/** How the token endpoint's ID token is re-signed (with the provider's own key) before it leaves; `resign` changes nothing (a control). */
export type IdTokenTamper = 'none' | 'resign' | 'audience' | 'expired';

export interface TestProvider {
  issuer: string;
  /** Registers the client with these addresses and starts answering (503 until then). */
  configure(opts: { redirectUris: string[]; postLogoutRedirectUris: string[]; claimsInIdToken?: boolean }): void;
  /** Applies to every later token response. */
  tamper: { mode: IdTokenTamper };
  /**
   * Holds the next redirect back to the client: the browser gets a blank page instead, and the
   * promise the callback URL it would have gone to (a browser test can then alter or replay it).
   */
  holdNextCallback(): Promise<string>;
  /** Stops answering (discovery then fails) until `resume`. */
  pause(): void;
  resume(): void;
  close(): Promise<void>;
}

const b64 = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString('base64url');

/** Re-signs a compact RS256 JWT after `change` edits its payload. */
function resign(jwt: string, jwk: JsonWebKey, change: (claims: Record<string, unknown>) => void): string {
  const [header = '', payload = ''] = jwt.split('.');
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
  change(claims);
  const input = `${header}.${b64(claims)}`;
  const signature = sign('sha256', Buffer.from(input), createPrivateKey({ key: jwk, format: 'jwk' }));
  return `${input}.${signature.toString('base64url')}`;
}

function tamperWith(mode: IdTokenTamper): (claims: Record<string, unknown>) => void {
  const now = Math.floor(Date.now() / 1000);
  if (mode === 'resign') return () => undefined;
  return mode === 'audience'
    ? (c) => { c.aud = 'another-client'; }
    : (c) => { c.iat = now - 7200; c.exp = now - 3600; };
}

function providerFor(issuer: string, jwk: JsonWebKey, opts: Parameters<TestProvider['configure']>[0]): Provider {
  return new Provider(issuer, {
    clients: [{
      client_id: OIDC_CLIENT.id, client_secret: OIDC_CLIENT.secret, redirect_uris: opts.redirectUris,
      post_logout_redirect_uris: opts.postLogoutRedirectUris, token_endpoint_auth_method: 'client_secret_basic',
      grant_types: ['authorization_code'], response_types: ['code'],
    }],
    jwks: { keys: [jwk] },
    claims: { openid: ['sub'], profile: ['preferred_username', 'name'], email: ['email'], groups: ['groups'] },
    scopes: ['openid', 'profile', 'email', 'groups'],
    conformIdTokenClaims: !opts.claimsInIdToken,
    pkce: { required: () => true },
    cookies: { keys: ['test-cookie-key-0123456789'] },
    ttl: { Interaction: 600, Grant: 3600, Session: 3600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
    features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true } },
    findAccount: (_ctx: unknown, id: string) => {
      const claims = OIDC_ACCOUNTS[id];
      return claims ? { accountId: id, claims: () => ({ sub: id, ...claims }) } : undefined;
    },
    // First-party client: no consent screen, the scopes asked are granted.
    loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
      const { oidc } = ctx;
      const grantId = oidc.result?.consent?.grantId ?? oidc.session?.grantIdFor(OIDC_CLIENT.id);
      if (grantId) return oidc.provider.Grant.find(grantId);
      const grant = new oidc.provider.Grant({ clientId: OIDC_CLIENT.id, accountId: oidc.session?.accountId });
      grant.addOIDCScope(OIDC_SCOPES);
      grant.addOIDCClaims(['preferred_username', 'name', 'email', 'groups']);
      await grant.save();
      return grant;
    },
  });
}

/**
 * A real OpenID provider (`oidc-provider`) on a free loopback port, in this process: a static
 * client (client_secret_basic), an RS256 JWKS, the dev login form (any password) and the accounts
 * above. `tamper` makes its token endpoint hand out an ID token for another audience or an
 * expired one, validly signed, as a compromised or misconfigured provider would.
 */
export async function startOidcProvider(): Promise<TestProvider> {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...privateKey.export({ format: 'jwk' }), kid: 'test-key', alg: 'RS256', use: 'sig' };
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  let paused = false;
  const server = createServer((req, res) => {
    if (!handler || paused) return res.writeHead(503).end('not ready');
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const tamper: TestProvider['tamper'] = { mode: 'none' };
  let hold: ((url: string) => void) | undefined;
  return {
    issuer,
    tamper,
    holdNextCallback: () => new Promise<string>((resolve) => { hold = resolve; }),
    configure(opts) {
      const provider = providerFor(issuer, jwk, opts);
      provider.use(async (ctx, next) => {
        await next();
        const location = ctx.status >= 300 && ctx.status < 400 ? ctx.response.get('location') : '';
        if (hold && location && new URL(location, issuer).origin !== issuer) {
          hold(location);
          hold = undefined;
          ctx.status = 200;
          ctx.type = 'html';
          ctx.body = `<p>${HELD_TEXT}</p>`;
          return;
        }
        const body = ctx.body as { id_token?: string } | undefined;
        if (ctx.path === '/token' && tamper.mode !== 'none' && body?.id_token) {
          ctx.body = { ...body, id_token: resign(body.id_token, jwk, tamperWith(tamper.mode)) };
        }
      });
      handler = provider.callback();
    },
    pause: () => { paused = true; },
    resume: () => { paused = false; },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
