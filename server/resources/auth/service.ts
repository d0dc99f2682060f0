import { validateAndHash } from '../../accounts/password';
import { provisionUser } from '../../accounts/provision';
import { userFromDefaults, withoutPrivileges } from '../../accounts/records';
import { endSessions, type SessionTracker } from '../../accounts/sessions';
import { effectiveSettings } from '../../accounts/settings-normalize';
import type { TokenCodec } from '../../accounts/token';
import type { UsedTotpSteps } from '../../accounts/totp-steps';
import type { ServerConfig } from '../../config';
import { AppError } from '../../errors';
import { tokenLifetimeMs } from '../../lib/go-duration';
import type { Throttle } from '../../lib/throttle';
import type { UserRecord } from '../../state/schema';
import type { Store } from '../../state/store';
import type { RecordEntry } from '../../activity/entry';
import { recordSignIn } from './sign-in-record';
import { LOGIN_METHODS, signupCredentials, type AuthAttempt, type MethodContext } from './methods';

export type { AuthAttempt } from './methods';

export interface AuthServiceDeps {
  store: Store;
  config: ServerConfig;
  sessions: SessionTracker;
  throttle: Throttle;
  /** The TOTP steps used by sign-ins (`totpStepsOn` the shared-ephemeral store). */
  totpSteps: UsedTotpSteps;
  /** Signs the tokens handed out (plugins/tokens.ts). */
  tokens: TokenCodec;
  /** The server's environment, passed on to the auth hook program. */
  env?: Readonly<Record<string, string | undefined>>;
  now?: () => number;
  /** Records sign-ins and sign-ups, successful or not, in the activity log. */
  activity?: RecordEntry;
}

export interface AuthService {
  /** Signs a user in with the configured auth method and returns a fresh token. */
  login(attempt: AuthAttempt): Promise<string>;
  /** Creates an account when signup is on (405 otherwise). */
  signup(attempt: AuthAttempt): Promise<void>;
  /** A new token built from the freshly loaded user. */
  renew(user: UserRecord): string;
  /** Ends every token of user `id` issued until now (api.md §14). */
  endSessions(id: number): Promise<void>;
}

async function signup(ctx: MethodContext, attempt: AuthAttempt): Promise<void> {
  const settings = effectiveSettings(ctx.store.data().settings);
  if (!settings.signup) throw new AppError('method_not_allowed');
  const creds = signupCredentials(attempt.body);
  // 409s are counted: they are how a script would enumerate existing names.
  await ctx.throttle.guard({ address: attempt.address, name: creds.username }, async () => {
    const hash = await validateAndHash(creds.password, settings.minimumPasswordLength);
    const user = withoutPrivileges(userFromDefaults(settings.defaults, creds.username, hash));
    await provisionUser(ctx.store, ctx.root, { user: { ...user, lockPassword: false } });
  }, ['exists']);
}

/** --oidc.passwordLogin=false: the methods that take a password (json, hook) refuse it, and sign-up too. */
function passwordsOff(config: ServerConfig, method: string): boolean {
  return config.oidc?.passwordLogin === false && (method === 'json' || method === 'hook');
}

const PASSWORDS_OFF = new AppError('forbidden', 'password sign-in is turned off', { 'X-Filemgr-Password-Login': 'off' });

/** Sign-in with each auth method, sign-up, token renewal and "log out everywhere" (api.md §2). */
export function createAuthService(deps: AuthServiceDeps): AuthService {
  const now = deps.now ?? Date.now;
  const ctx: MethodContext = { store: deps.store, root: deps.config.root, sessions: deps.sessions, throttle: deps.throttle, totpSteps: deps.totpSteps, env: deps.env ?? {}, now };
  const issue = (user: UserRecord): string =>
    deps.tokens.sign(user, deps.store.data().settings.key, { lifetimeMs: tokenLifetimeMs(deps.config.tokenExpirationTime), nowMs: now() });
  return {
    async login(attempt) {
      // A sign-in costs a password hash anyway: it first makes sure this instance has what another
      // one changed a moment ago (a new user, a new password; beyond.md §10). One cheap check.
      await deps.store.refresh({ verify: true });
      const name = deps.store.data().settings.authMethod || 'json';
      if (passwordsOff(deps.config, name)) throw PASSWORDS_OFF;
      const method = LOGIN_METHODS[name];
      if (!method) throw new AppError('internal', `unknown auth method ${name}`);
      return issue(await recordSignIn({ record: deps.activity, store: deps.store }, { action: 'login', method: name, attempt }, () => method(ctx, attempt)));
    },
    signup: (attempt) => (passwordsOff(deps.config, 'json') ? Promise.reject(PASSWORDS_OFF) : recordSignIn({ record: deps.activity, store: deps.store }, { action: 'signup', method: 'json', attempt }, () => signup(ctx, attempt))),
    renew: issue,
    endSessions: (id) => endSessions({ store: deps.store, sessions: deps.sessions }, id, now()),
  };
}
