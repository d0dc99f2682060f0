const SIZE_UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte', 'petabyte'] as const;

/** A byte count in the locale's words and digits, in steps of 1024 ("1.5 MB", "1,5 Mo"). */
export function formatSize(bytes: number, lang: string): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < SIZE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return new Intl.NumberFormat(lang, {
    style: 'unit',
    unit: SIZE_UNITS[unit],
    unitDisplay: 'short',
    maximumFractionDigits: unit === 0 ? 0 : 1,
  }).format(value);
}

/** A timestamp as the locale writes a date and time, or '' when the input is not a date. */
export function formatDateTime(iso: string, lang: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

/** The share of `used` in `total` as a whole percentage between 0 and 100. */
export function usedPercent(used: number, total: number): number {
  if (total <= 0) return 0;
  return Math.min(100, Math.max(0, Math.round((used / total) * 100)));
}

const RELATIVE_STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 31_536_000],
  ['month', 2_592_000],
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
  ['second', 1],
];

/** A moment relative to now in the locale's words ("in 3 hours", "2 days ago"). */
export function formatRelative(unixSeconds: number, nowMs: number, lang: string): string {
  const delta = unixSeconds - Math.round(nowMs / 1000);
  const [unit, size] = RELATIVE_STEPS.find(([, s]) => Math.abs(delta) >= s) ?? ['second', 1];
  return new Intl.RelativeTimeFormat(lang, { numeric: 'auto' }).format(Math.round(delta / size), unit);
}
