import type * as OtpAuth from 'otpauth';
import type { TOTP } from 'otpauth';
import { loadLater } from '../lib/load-later';
import { AppError } from '../errors';
import type { Database, TotpRecord } from '../state/schema';
import type { Ephemeral } from '../state/ephemeral';
import type { Store } from '../state/store';
import { markTtlMs, usedTotpSteps, type UsedTotpSteps } from './totp-steps';
import { hashRecoveryCode, newRecoveryCodes, openSecret, sealSecret } from './totp-secret';

// Loaded by the first two-factor setup or check, not at start-up (idle RSS, P2).
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (load-later.ts)
const otpauth = loadLater<typeof OtpAuth>('otpauth', () => require('otpauth'));

/** RFC 6238 as beyond.md §4.2 fixes it: SHA-1, 6 digits, 30-second steps, one step of drift. */
const PERIOD = 30;
const DRIFT = 1;

/** The time step of `nowMs`. */
const stepAt = (nowMs: number): number => Math.floor(nowMs / 1000 / PERIOD);

/** The store of used steps that `checkSecondFactor` takes, on the shared-ephemeral store. */
export function totpStepsOn(ephemeral: Ephemeral): UsedTotpSteps {
  return usedTotpSteps(ephemeral, markTtlMs(PERIOD, DRIFT));
}

function totpOf(secret: string, label = 'filemgr', issuer = 'filemgr'): TOTP {
  const { Secret, TOTP } = otpauth();
  return new TOTP({ issuer, label, algorithm: 'SHA1', digits: 6, period: PERIOD, secret: Secret.fromBase32(secret) });
}

/** The two-factor record of user `userId`, enabled or waiting for its first code. */
function recordOf(db: Readonly<Database>, userId: number): TotpRecord | undefined {
  return (db.totp ?? []).find((t) => t.userId === userId);
}

/** Whether user `userId` has two-factor sign-in on (then WebDAV takes API tokens only, beyond.md §1). */
export function hasTotp(db: Readonly<Database>, userId: number): boolean {
  return recordOf(db, userId)?.enabled === true;
}

/** Starts (or restarts) enrolment: a new secret, stored sealed, not yet on; 409 when it is already on. */
export async function startTotp(store: Store, user: { id: number; username: string }, nowMs: number): Promise<{ secret: string; uri: string }> {
  const secret = new (otpauth().Secret)({ size: 20 }).base32;
  const issuer = store.data().settings.branding.name || 'filemgr';
  await store.update((db) => {
    if (!db.users.some((u) => u.id === user.id)) throw new AppError('not_found');
    if (hasTotp(db, user.id)) throw new AppError('exists', 'two-factor sign-in is already on');
    const record: TotpRecord = { userId: user.id, secret: sealSecret(db.settings.key, secret), enabled: false, lastStep: 0, recovery: [], created: nowMs };
    db.totp = [...(db.totp ?? []).filter((t) => t.userId !== user.id), record];
  });
  return { secret, uri: totpOf(secret, user.username, issuer).toString() };
}

/** The step of a 6-digit `code` within one step of now, or null; never a step at or before `lastStep`. */
function acceptedStep(secret: string, code: string, req: { nowMs: number; lastStep: number }): number | null {
  const token = code.replace(/\s/g, '');
  if (!/^\d{6}$/.test(token)) return null;
  const delta = totpOf(secret).validate({ token, timestamp: req.nowMs, window: DRIFT });
  if (delta === null) return null;
  const step = stepAt(req.nowMs) + delta;
  return step > req.lastStep ? step : null;
}

/** Consumes a TOTP `code` for `record` inside a state update (enrolment): its step becomes `lastStep`. */
function consumeStep(db: Database, record: TotpRecord, req: { code: string; nowMs: number }): boolean {
  const secret = openSecret(db.settings.key, record.secret);
  if (secret === null) return false;
  const step = acceptedStep(secret, req.code, { nowMs: req.nowMs, lastStep: record.lastStep });
  if (step === null) return false;
  record.lastStep = step;
  return true;
}

/** Turns enrolment on with its first code (403 when wrong); answers the ten recovery codes, shown once. */
export async function confirmTotp(store: Store, userId: number, req: { code: string; nowMs: number }): Promise<string[]> {
  const codes = newRecoveryCodes();
  await store.update((db) => {
    const record = recordOf(db, userId);
    if (!record) throw new AppError('not_found', 'no two-factor enrolment was started');
    if (record.enabled) throw new AppError('exists', 'two-factor sign-in is already on');
    if (!consumeStep(db, record, req)) throw new AppError('forbidden');
    record.enabled = true;
    record.recovery = codes.map(hashRecoveryCode);
  });
  return codes;
}

/**
 * Checks the second factor of a sign-in: true when the user has none on or `code` is a fresh TOTP
 * code or an unused recovery code. A TOTP code is marked used in the shared-ephemeral store
 * (`on.steps`, atomic across instances: of two requests racing with one code, one wins), with no
 * durable write (totp-steps.ts says why, and what a restart does); a recovery code is single-use
 * forever, so it is removed from the state, atomically, inside an update (rare).
 */
export async function checkSecondFactor(on: { store: Store; steps: UsedTotpSteps }, userId: number, req: { code: string; nowMs: number }): Promise<boolean> {
  const db = on.store.data();
  const record = recordOf(db, userId);
  if (record?.enabled !== true) return true;
  if (req.code.trim() === '') return false;
  const secret = openSecret(db.settings.key, record.secret);
  if (secret === null) return false;
  const step = acceptedStep(secret, req.code, { nowMs: req.nowMs, lastStep: record.lastStep });
  if (step !== null) return on.steps.claim({ userId, created: record.created }, step, stepAt(req.nowMs) - DRIFT);
  return consumeRecoveryCode(on.store, record, req.code);
}

/** Removes an unused recovery `code` of `known`'s user; false (without a state write) when it is none. */
async function consumeRecoveryCode(store: Store, known: TotpRecord, code: string): Promise<boolean> {
  const hash = hashRecoveryCode(code);
  if (!known.recovery.includes(hash)) return false;
  // Checked again inside the update, which settles two requests racing with one code; the loser
  // throws, so that its update writes nothing.
  return store.update((db) => {
    const record = recordOf(db, known.userId);
    if (!record?.enabled) return true;
    const at = record.recovery.indexOf(hash);
    if (at < 0) throw new AppError('forbidden');
    record.recovery.splice(at, 1);
    return true;
  }).catch((err: unknown) => {
    if (err instanceof AppError && err.code === 'forbidden') return false;
    throw err;
  });
}

/** Turns two-factor sign-in off for user `userId` (also a pending enrolment); false when there was none. */
export async function removeTotp(store: Store, userId: number): Promise<boolean> {
  return store.update((db) => {
    const before = db.totp ?? [];
    db.totp = before.filter((t) => t.userId !== userId);
    return db.totp.length !== before.length;
  });
}

/** The unused recovery codes left to user `userId` (0 when two-factor sign-in is off). */
export function recoveryCodesLeft(db: Readonly<Database>, userId: number): number {
  const record = recordOf(db, userId);
  return record?.enabled ? record.recovery.length : 0;
}
