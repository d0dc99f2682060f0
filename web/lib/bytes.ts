// The chunk size field of the global settings (product.md §5): "10MB", "1.5 g", "512k", "0".

/** 1 MiB: what an unreadable chunk size falls back to. */
export const FALLBACK_CHUNK_SIZE = 1024 ** 2;

const POWERS: Record<string, number> = { '': 0, b: 0, k: 1, kb: 1, m: 2, mb: 2, g: 3, gb: 3, t: 4, tb: 4 };
const PATTERN = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i;

/**
 * Bytes for a number with an optional decimal and a unit B, K, KB, M, MB, G, GB, T or TB
 * (case-insensitive, base 1024); null when the text is anything else.
 */
export function parseBytes(text: string): number | null {
  const match = PATTERN.exec(text);
  if (!match) return null;
  const power = POWERS[(match[2] ?? '').toLowerCase()];
  if (power === undefined) return null;
  const bytes = Math.round(Number(match[1]) * 1024 ** power);
  return Number.isSafeInteger(bytes) ? bytes : null;
}

/** The chunk size for the field: the largest unit that keeps it short ("10MB", "1.5GB", "300B"). */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let power = 0;
  while (power < units.length - 1 && bytes >= 1024 ** (power + 1)) power += 1;
  const value = Math.round((bytes / 1024 ** power) * 100) / 100;
  return `${value}${units[power] ?? 'B'}`;
}
