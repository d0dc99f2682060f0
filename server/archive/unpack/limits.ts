import { AppError } from '../../errors';

/** What one extraction may write (beyond.md §5). */
export interface ExtractLimits {
  /** More entries answer 413 (1,000,000). */
  maxEntries: number;
  /** More bytes written answer 413: 1000 times the archive's size. */
  maxBytes: number;
  /** Bytes the user's quota still leaves, or null without a quota. */
  room: number | null;
}

export const MAX_ENTRIES = 1_000_000;
export const MAX_RATIO = 1000;

/** The limits for an archive of `size` bytes and the room a quota leaves (null: none). */
export function limitsFor(size: number, room: number | null, maxEntries = MAX_ENTRIES): ExtractLimits {
  return { maxEntries, maxBytes: Math.max(size, 1) * MAX_RATIO, room };
}

/**
 * THE quota check point of an extraction: called with the bytes written (or, for a zip, declared
 * by its central directory) so far. The room comes from the quota service (beyond.md §6) through
 * ResourcesDeps.quota; without one there is no limit.
 */
export function checkRoom(bytes: number, room: number | null): void {
  if (room !== null && bytes > room) throw new AppError('insufficient_storage', 'the extracted files exceed the quota');
}
