import { randomBytes } from 'node:crypto';
import { applyHookValues, hookAction, runAuthHook } from '../../accounts/hook-auth';
import { burnComparison, hashPassword, validateAndHash, verifyPassword } from '../../accounts/password';
import { provisionUser } from '../../accounts/provision';
import { userFromDefaults, withoutPrivileges } from '../../accounts/records';
import { verifyRecaptcha } from '../../accounts/recaptcha';
import { checkSecondFactor, hasTotp } from '../../accounts/totp';
import type { SessionTracker } from '../../accounts/sessions';
import type { UsedTotpSteps } from '../../accounts/totp-steps';
import { effectiveSettings } from '../../accounts/settings-normalize';
import { AppError } from '../../errors';
import { decodeJsonBody } from '../../lib/json-body';
import type { Throttle } from '../../lib/throttle';
import type { UserRecord } from '../../state/schema';
import type { Store } from '../../state/store';

/** What the sign-in methods share. */
export interface MethodContext {
  store: Store;
  root: string;
  sessions: SessionTracker;
  throttle: Throttle;
  /** The TOTP steps used by sign-ins (shared by the instances, beyond.md §4.2, §10). */
  totpSteps: UsedTotpSteps;
  env: Readonly<Record<string, string | undefined>>;
  now: () => number;
}

/** A sign-in or sign-up attempt: the raw body, the client address and the request headers. */
export interface AuthAttempt {
  body: unknown;
  address: string;
  header: (name: string) => string | undefined;
}

export interface Credentials {
  username: string;
  password: string;
  recaptcha: string;
  /** beyond.md §4.2: a TOTP code or a recovery code, for users with two-factor sign-in on. */
  otp?: string;
}

/** A sign-in method of api.md §2.4: resolves the user, or throws 403 (or 500 for broken setups). */
export type LoginMethod = (ctx: MethodContext, attempt: AuthAttempt) => Promise<UserRecord>;

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Login credentials; an undecodable body or one that is not an object is refused (403). */
export function loginCredentials(body: unknown): Credentials {
  const decoded = decodeJsonBody(body);
  if (!decoded.ok || typeof decoded.value !== 'object' || decoded.value === null) throw new AppError('forbidden');
  const v = decoded.value as Record<string, unknown>;
  return { username: str(v.username), password: str(v.password), recaptcha: str(v.recaptcha), otp: str(v.otp) };
}

/** Signup credentials; bad JSON, or an empty name or password, answers 400 with the reason. */
export function signupCredentials(body: unknown): Credentials {
  const decoded = decodeJsonBody(body);
  if (!decoded.ok) throw new AppError('bad_request', decoded.reason);
  if (typeof decoded.value !== 'object' || decoded.value === null || Array.isArray(decoded.value)) {
    throw new AppError('bad_request', 'invalid request body');
  }
  const v = decoded.value as Record<string, unknown>;
  const creds = { username: str(v.username), password: str(v.password), recaptcha: '' };
  if (creds.username.trim() === '') throw new AppError('bad_request', 'username is empty');
  if (creds.password === '') throw new AppError('bad_request', 'password is empty');
  return creds;
}

/** Checks a password against the stored user; unknown users cost the same time (403 either way). */
async function checkLocal(ctx: MethodContext, creds: Credentials): Promise<UserRecord> {
  const user = ctx.store.data().users.find((u) => u.username === creds.username);
  if (!user) {
    await burnComparison(creds.password);
    throw new AppError('forbidden');
  }
  if (!(await verifyPassword(creds.password, user.password))) throw new AppError('forbidden');
  return user;
}

/**
 * The second factor of a password sign-in (beyond.md §4.2): missing, 401 with `X-Filemgr-Otp:
 * required` (not a failure: the password was right); wrong or replayed, a plain 401 (a failure).
 */
async function secondFactor(ctx: MethodContext, user: UserRecord, otp: string | undefined): Promise<UserRecord> {
  if (!hasTotp(ctx.store.data(), user.id)) return user;
  if ((otp ?? '').trim() === '') throw new AppError('otp_required', undefined, { 'x-filemgr-otp': 'required' });
  if (!(await checkSecondFactor({ store: ctx.store, steps: ctx.totpSteps }, user.id, { code: otp ?? '', nowMs: ctx.now() }))) throw new AppError('unauthorized');
  return user;
}

const jsonLogin: LoginMethod = (ctx, attempt) => {
  const creds = loginCredentials(attempt.body);
  return ctx.throttle.guard({ address: attempt.address, name: creds.username }, async () => {
    const recaptcha = ctx.store.data().auther.recaptcha;
    if (recaptcha?.secret) await verifyRecaptcha(recaptcha, creds.recaptcha);
    return secondFactor(ctx, await checkLocal(ctx, creds), creds.otp);
  }, ['forbidden', 'unauthorized']);
};

const noauthLogin: LoginMethod = (ctx) => {
  const user = ctx.store.data().users.find((u) => u.id === 1);
  if (!user) return Promise.reject(new AppError('internal', 'noauth: user 1 does not exist'));
  return Promise.resolve(user);
};

const proxyLogin: LoginMethod = async (ctx, attempt) => {
  const header = ctx.store.data().auther.header ?? '';
  const name = header ? (attempt.header(header) ?? '').trim() : '';
  if (name === '') throw new AppError('forbidden');
  const existing = ctx.store.data().users.find((u) => u.username === name);
  if (existing) return existing;
  // 22 random bytes nobody knows: the proxy stays the only way in for this user.
  const hash = await hashPassword(randomBytes(22).toString('base64url'));
  const user = withoutPrivileges({ ...userFromDefaults(ctx.store.data().settings.defaults, name, hash), lockPassword: true });
  return provisionUser(ctx.store, ctx.root, { user });
};

/** hook.action=auth: provision a new user, or rewrite an existing one from the hook's values. */
async function hookAuth(ctx: MethodContext, creds: Credentials, values: Map<string, string>): Promise<UserRecord> {
  const { store } = ctx;
  const existing = store.data().users.find((u) => u.username === creds.username);
  const minLength = effectiveSettings(store.data().settings).minimumPasswordLength;
  if (!existing) {
    const hash = await validateAndHash(creds.password, minLength);
    const base = withoutPrivileges(userFromDefaults(store.data().settings.defaults, creds.username, hash));
    return provisionUser(store, ctx.root, { user: applyHookValues(base, values), explicitScope: values.get('user.scope') });
  }
  const samePassword = await verifyPassword(creds.password, existing.password);
  if (samePassword && values.size <= 1) return existing;
  const hash = samePassword ? existing.password : await validateAndHash(creds.password, minLength);
  const scope = values.get('user.scope') ?? existing.scope;
  const updated: UserRecord = { ...applyHookValues(existing, values), id: existing.id, password: hash, scope };
  await store.update((db) => {
    db.users = db.users.map((u) => (u.id === existing.id ? updated : u));
  });
  ctx.sessions.markUpdated(existing.id, ctx.now());
  return updated;
}

const hookLogin: LoginMethod = (ctx, attempt) => {
  const creds = loginCredentials(attempt.body);
  return ctx.throttle.guard({ address: attempt.address, name: creds.username }, async () => {
    const values = await runAuthHook(ctx.store.data().auther.command ?? '', creds, ctx.env);
    const action = hookAction(values);
    if (action === 'block') throw new AppError('forbidden');
    if (action === 'pass') return secondFactor(ctx, await checkLocal(ctx, creds), creds.otp);
    return secondFactor(ctx, await hookAuth(ctx, creds, values), creds.otp);
  }, ['forbidden', 'unauthorized']);
};

/** The sign-in methods by `settings.authMethod`. */
export const LOGIN_METHODS: Readonly<Record<string, LoginMethod>> = {
  json: jsonLogin,
  noauth: noauthLogin,
  proxy: proxyLogin,
  hook: hookLogin,
};
