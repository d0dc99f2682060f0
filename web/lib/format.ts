const RTL_LANGS = new Set(['ar', 'he']);

// IEC symbols (base 1024), the same in every language: "7 B", "4 KiB", "1.5 GiB".
const SIZE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'] as const;

// Intl formatters are costly to build and a listing formats many values: one per language.
const numberFormats = new Map<string, Intl.NumberFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();
const relativeFormats = new Map<string, Intl.RelativeTimeFormat>();
const unitFormats = new Map<string, Intl.NumberFormat>();

function cached<T>(cache: Map<string, T>, key: string, make: () => T): T {
  let found = cache.get(key);
  if (!found) {
    found = make();
    cache.set(key, found);
  }
  return found;
}

/** A byte count with the locale's digits and an IEC unit in steps of 1024 ("1.5 MiB", "1,5 MiB"). */
export function formatSize(bytes: number, lang: string): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < SIZE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = cached(numberFormats, `${lang}|${unit === 0 ? 0 : 1}`, () => new Intl.NumberFormat(lang, { maximumFractionDigits: unit === 0 ? 0 : 1 })).format(value);
  // A no-break space keeps the number and its unit on one line; in a right-to-left language the
  // pair is isolated as left to right, or "7 B" would read "B 7" inside Arabic or Hebrew text.
  const size = `${digits}\u00a0${SIZE_UNITS[unit]}`;
  return RTL_LANGS.has(lang.split('-')[0] ?? '') ? `\u2066${size}\u2069` : size;
}

/** A timestamp as the locale writes a date and time, or '' when the input is not a date. */
export function formatDateTime(iso: string, lang: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return cached(dateFormats, lang, () => new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' })).format(date);
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
  return cached(relativeFormats, lang, () => new Intl.RelativeTimeFormat(lang, { numeric: 'auto' })).format(Math.round(delta / size), unit);
}

function unitFormat(lang: string, unit: 'second' | 'minute' | 'hour'): Intl.NumberFormat {
  return cached(unitFormats, `${lang}|${unit}`, () => new Intl.NumberFormat(lang, { style: 'unit', unit, unitDisplay: 'short', maximumFractionDigits: 0 }));
}

/** A time left in the locale's words, rounded to its largest unit: "45 sec", "3 min", "2 hr". */
export function formatDuration(seconds: number, lang: string): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return unitFormat(lang, 'second').format(s);
  if (s < 3600) return unitFormat(lang, 'minute').format(Math.round(s / 60));
  return unitFormat(lang, 'hour').format(Math.round(s / 3600));
}
