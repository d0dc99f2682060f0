// A size as people write it, for the quota (beyond.md §6): parsed alike by the CLI
// (`users update --quota 10GiB`) and the web's user form ("500 MB"), so both read it the same.

const POWERS: Record<string, number> = { '': 0, b: 0, k: 1, kb: 1, kib: 1, m: 2, mb: 2, mib: 2, g: 3, gb: 3, gib: 3, t: 4, tb: 4, tib: 4, p: 5, pb: 5, pib: 5 };
const PATTERN = /^\s*(\d+(?:[.,]\d+)?)\s*([a-z]*)\s*$/i;

/**
 * Bytes for a number with an optional unit: B, K/KB/KiB, M/MB/MiB, G/GB/GiB, T/TB/TiB, P/PB/PiB,
 * case-insensitive, with or without a space ("500 MB", "10GiB", "1.5 g", "0"). Every unit counts
 * in powers of 1024, as the web shows sizes and as the chunk size field reads them. Null when the
 * text is anything else (a negative number, an unknown unit, more than 2^53 bytes).
 */
export function parseSizeText(text: string): number | null {
  const match = PATTERN.exec(text);
  if (!match) return null;
  const power = POWERS[(match[2] ?? '').toLowerCase()];
  if (power === undefined) return null;
  const bytes = Math.round(Number((match[1] ?? '').replace(',', '.')) * 1024 ** power);
  return Number.isSafeInteger(bytes) ? bytes : null;
}
