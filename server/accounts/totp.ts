import type * as OtpAuth from 'otpauth';
import type { TOTP } from 'otpauth';
import { loadLater } from '../lib/load-later';
import { AppError } from '../errors';
import type { Database, TotpRecord } from '../state/schema';
import type { Store } from '../state/store';
import { hashRecoveryCode, newRecoveryCodes, openSecret, sealSecret } from './totp-secret';

// Loaded by the first two-factor setup or check, not at start-up (idle RSS, P2).
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (load-later.ts)
const otpauth = loadLater<typeof OtpAuth>('otpauth', () => require('otpauth'));

/** RFC 6238 as beyond.md §4.2 fixes it: SHA-1, 6 digits, 30-second steps, one step of drift. */
const PERIOD = 30;
const DRIFT = 1;

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
  const step = Math.floor(req.nowMs / 1000 / PERIOD) + delta;
  return step > req.lastStep ? step : null;
}

/**
 * Consumes `code` for `record` inside a state update: a TOTP code (accepted once: its step must be
 * after the last one used) or, when `recovery`, an unused recovery code (removed). False otherwise.
 */
function consume(db: Database, record: TotpRecord, req: { code: string; nowMs: number; recovery: boolean }): boolean {
  const secret = openSecret(db.settings.key, record.secret);
  if (secret === null) return false;
  const step = acceptedStep(secret, req.code, { nowMs: req.nowMs, lastStep: record.lastStep });
  if (step !== null) {
    record.lastStep = step;
    return true;
  }
  if (!req.recovery) return false;
  const hash = hashRecoveryCode(req.code);
  const at = record.recovery.indexOf(hash);
  if (at < 0) return false;
  record.recovery.splice(at, 1);
  return true;
}

/** Turns enrolment on with its first code (403 when wrong); answers the ten recovery codes, shown once. */
export async function confirmTotp(store: Store, userId: number, req: { code: string; nowMs: number }): Promise<string[]> {
  const codes = newRecoveryCodes();
  await store.update((db) => {
    const record = recordOf(db, userId);
    if (!record) throw new AppError('not_found', 'no two-factor enrolment was started');
    if (record.enabled) throw new AppError('exists', 'two-factor sign-in is already on');
    if (!consume(db, record, { ...req, recovery: false })) throw new AppError('forbidden');
    record.enabled = true;
    record.recovery = codes.map(hashRecoveryCode);
  });
  return codes;
}

/**
 * Checks the second factor of a sign-in: true when the user has none on or `code` is a fresh TOTP
 * code or an unused recovery code (each consumed atomically, so a replay in parallel fails too).
 */
export async function checkSecondFactor(store: Store, userId: number, req: { code: string; nowMs: number }): Promise<boolean> {
  const db = store.data();
  const current = recordOf(db, userId);
  if (current?.enabled !== true) return true;
  if (req.code.trim() === '') return false;
  // A wrong code is refused on a copy of the record, without a state write (microseconds); a
  // right one is consumed again inside the update, which settles two requests racing with it.
  if (!consume(db, structuredClone(current), { ...req, recovery: true })) return false;
  return store.update((db) => {
    const record = recordOf(db, userId);
    if (!record?.enabled) return true;
    if (!consume(db, record, { ...req, recovery: true })) throw new AppError('forbidden');
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
