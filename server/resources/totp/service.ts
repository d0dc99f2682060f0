import type { TotpEnrolment, TotpOffBody, TotpStatus } from '../../contract/totp';
import { verifyPassword } from '../../accounts/password';
import { checkSecondFactor, confirmTotp, hasTotp, recoveryCodesLeft, removeTotp, startTotp } from '../../accounts/totp';
import type { UsedTotpSteps } from '../../accounts/totp-steps';
import { AppError } from '../../errors';
import type { Throttle } from '../../lib/throttle';
import type { UserRecord } from '../../state/schema';
import type { Store } from '../../state/store';

export interface TotpServiceDeps {
  store: Store;
  /** The one throttle of every credential check (api.md §14): wrong codes and passwords count. */
  throttle: Throttle;
  /** The TOTP steps used (`totpStepsOn` the shared-ephemeral store): a code turns it off once. */
  totpSteps: UsedTotpSteps;
  now?: () => number;
}

/** Who asks, from where (the throttle's key). */
export interface TotpCaller {
  user: UserRecord;
  address: string;
}

export interface TotpService {
  /** Whether the caller has two-factor sign-in on and whether the server requires it. */
  status(user: UserRecord): TotpStatus;
  /** Starts enrolment: a new secret and its otpauth:// address (409 when already on). */
  start(user: UserRecord): Promise<TotpEnrolment>;
  /** Turns it on with a first code (403 when wrong, counted); the ten recovery codes. */
  confirm(caller: TotpCaller, code: string): Promise<string[]>;
  /** Turns it off with a current code or recovery code, or the current password (403 when wrong, counted). */
  disable(caller: TotpCaller, body: TotpOffBody | undefined): Promise<void>;
  /** An admin turns user `userId`'s off, proving who they are with their own current password. */
  reset(caller: TotpCaller, req: { userId: number; currentPassword: string }): Promise<void>;
}

const guardKey = (c: TotpCaller) => ({ address: c.address, name: c.user.username });

/** The caller's password, under json auth only (other methods have no password the user knows). */
async function passwordMatches(store: Store, userId: number, given: string): Promise<boolean> {
  if ((store.data().settings.authMethod || 'json') !== 'json') return true;
  const stored = store.data().users.find((u) => u.id === userId)?.password ?? '';
  return verifyPassword(given, stored);
}

async function disable(deps: TotpServiceDeps, caller: TotpCaller, body: TotpOffBody | undefined): Promise<void> {
  const code = body?.code?.trim() ?? '';
  const password = body?.current_password ?? '';
  if (code === '' && password === '') throw new AppError('bad_request', 'give a code or the current password');
  const now = deps.now ?? Date.now;
  await deps.throttle.guard(guardKey(caller), async () => {
    if (!(deps.store.data().totp ?? []).some((t) => t.userId === caller.user.id)) throw new AppError('not_found');
    const ok = code !== ''
      ? !hasTotp(deps.store.data(), caller.user.id) || (await checkSecondFactor({ store: deps.store, steps: deps.totpSteps }, caller.user.id, { code, nowMs: now() }))
      : await passwordMatches(deps.store, caller.user.id, password);
    if (!ok) throw new AppError('forbidden');
    await removeTotp(deps.store, caller.user.id);
  }, ['forbidden']);
}

async function reset(deps: TotpServiceDeps, caller: TotpCaller, req: { userId: number; currentPassword: string }): Promise<void> {
  await deps.throttle.guard(guardKey(caller), async () => {
    if (!(await passwordMatches(deps.store, caller.user.id, req.currentPassword))) throw new AppError('forbidden');
    if (!deps.store.data().users.some((u) => u.id === req.userId)) throw new AppError('not_found');
    await removeTotp(deps.store, req.userId);
  }, ['forbidden']);
}

/** Two-factor sign-in (beyond.md §4.2): enrolment, turning it off, an admin's reset. */
export function createTotpService(deps: TotpServiceDeps): TotpService {
  const { store } = deps;
  const now = deps.now ?? Date.now;
  return {
    status: (user) => ({ enabled: hasTotp(store.data(), user.id), required: store.data().settings.requireTotp === true, recoveryCodesLeft: recoveryCodesLeft(store.data(), user.id) }),
    start: (user) => startTotp(store, user, now()),
    confirm: (caller, code) => deps.throttle.guard(guardKey(caller), () => confirmTotp(store, caller.user.id, { code, nowMs: now() }), ['forbidden']),
    disable: (caller, body) => disable(deps, caller, body),
    reset: (caller, req) => reset(deps, caller, req),
  };
}
