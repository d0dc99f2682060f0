import { formatDateTime, formatRelative } from '../lib/format';

interface DateTimeProps {
  /** The moment, as the API writes it (RFC 3339). */
  iso: string;
  /** Show the exact date and time instead of "2 hours ago" (the profile's "Show exact dates"). */
  exact: boolean;
  nowMs: number;
  lang: string;
  className?: string;
}

/** A moment as "2 hours ago" with the exact time as its tooltip, or as the exact time. */
export function DateTime({ iso, exact, nowMs, lang, className }: DateTimeProps) {
  const full = formatDateTime(iso, lang);
  const ms = new Date(iso).getTime();
  if (exact || Number.isNaN(ms)) return <time className={className} dateTime={iso}>{full}</time>;
  return <time className={className} dateTime={iso} title={full}>{formatRelative(ms / 1000, nowMs, lang)}</time>;
}
