const formats = new Map<string, Intl.NumberFormat>();

function unitFormat(lang: string, unit: 'second' | 'minute' | 'hour'): Intl.NumberFormat {
  const key = `${lang}|${unit}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(lang, { style: 'unit', unit, unitDisplay: 'short', maximumFractionDigits: 0 });
    formats.set(key, format);
  }
  return format;
}

/** A time left in the locale's words, rounded to its largest unit: "45 sec", "3 min", "2 hr". */
export function formatDuration(seconds: number, lang: string): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return unitFormat(lang, 'second').format(s);
  if (s < 3600) return unitFormat(lang, 'minute').format(Math.round(s / 60));
  return unitFormat(lang, 'hour').format(Math.round(s / 3600));
}
