import { lstat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { UserRecord } from '../state/schema';
import type { Admission, WriteSize } from './quota';
import { sumFiles } from './walk-usage';

/** What a write path needs of the quota service (resources, WebDAV, tus, upload links). */
export interface QuotaGate {
  /** Whether the user has a quota at all. */
  has(user: UserRecord): boolean;
  admit(user: UserRecord, size: WriteSize): Promise<Admission>;
  room(user: UserRecord): Promise<number | null>;
}

/** The bytes of the regular file at `real` (what a write there replaces); 0 for anything else. */
export async function fileBytes(real: string): Promise<number> {
  const s = await lstat(real).catch(() => null);
  return s?.isFile() ? s.size : 0;
}

/** The declared length of a request body (Content-Length), or null when it streams without one. */
export function declaredLength(header: string | string[] | undefined): number | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || !/^\d+$/.test(value)) return null;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : null;
}

/**
 * Runs a write of `body` to the file `real` under the user's quota (beyond.md §6): 507 before
 * anything is written when the declared growth does not fit, or as soon as the streamed bytes
 * pass the room; the reservation is given back however the write ends.
 */
export async function writeUnderQuota<T>(
  quota: QuotaGate | undefined,
  w: { user: UserRecord; real: string; length: number | null; body: Readable },
  write: (body: Readable) => Promise<T>,
): Promise<T> {
  if (!quota) return write(w.body);
  const admission = await quota.admit(w.user, { replaces: await fileBytes(w.real), length: w.length });
  return heldWhile(admission, () => write(admission.limit(w.body)));
}

/** Runs `fn` while the admission holds its bytes; released after, kept only when `fn` succeeded. */
export async function heldWhile<T>(admission: Admission, fn: () => Promise<T>): Promise<T> {
  let kept = false;
  try {
    const result = await fn();
    kept = true;
    return result;
  } finally {
    await admission.release(kept);
  }
}

/** The bytes of the files at and below `real` (a copy's source or what it replaces). */
export async function treeBytes(real: string): Promise<number> {
  const s = await lstat(real).catch(() => null);
  if (s?.isDirectory()) return sumFiles(real, []);
  return s?.isFile() ? s.size : 0;
}

/**
 * Runs a copy from `src` to `dst` (real paths) under the user's quota: the sum of what is copied,
 * less what it replaces, must fit, else 507 before anything is copied.
 */
export async function copyUnderQuota<T>(quota: QuotaGate | undefined, c: { user: UserRecord; src: string; dst: string }, copy: () => Promise<T>): Promise<T> {
  if (!quota?.has(c.user)) return copy();
  const admission = await quota.admit(c.user, { replaces: await treeBytes(c.dst), length: await treeBytes(c.src) });
  return heldWhile(admission, copy);
}

/** Throws 507 when a write of `size` would not fit now, holding nothing (tus creation: the bytes come later). */
export async function checkRoom(quota: QuotaGate | undefined, user: UserRecord, size: { real: string; length: number }): Promise<void> {
  if (!quota?.has(user)) return;
  const admission = await quota.admit(user, { replaces: await fileBytes(size.real), length: size.length });
  await admission.release(false);
}

/**
 * Runs one tus PATCH under the user's quota: the file as it will be after this PATCH (`reach`
 * bytes, replacing what is at `real`) must fit; held while the bytes are written.
 */
export async function appendUnderQuota<T>(quota: QuotaGate | undefined, a: { user: UserRecord; real: string; reach: number }, append: () => Promise<T>): Promise<T> {
  if (!quota?.has(a.user)) return append();
  const admission = await quota.admit(a.user, { replaces: await fileBytes(a.real), length: a.reach });
  return heldWhile(admission, append);
}

/**
 * Places an extraction's `bytes` under the user's quota (beyond.md §5, §6): reserved before the
 * staged files move into place, so two extractions that each fit the room seen at their start
 * but not together give the second a 507 and leave its destination untouched.
 */
export function holdExtracted(quota: QuotaGate | undefined, user: UserRecord): ((bytes: number, place: () => Promise<void>) => Promise<void>) | undefined {
  if (!quota?.has(user)) return undefined;
  return async (bytes, place) => heldWhile(await quota.admit(user, { replaces: 0, length: bytes }), place);
}
