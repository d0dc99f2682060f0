import { formatDateTime, formatRelative } from '../lib/format';

interface DateTimeProps {
  /** The moment, as the API writes it (RFC 3339). */
  iso: string;
  /** Show the exact date and time instead of "2 hours ago" (the profile's "Show exact dates"). */
  exact: boolean;
  nowMs: number;
  lang: string;
  className?: string;
  id?: string;
}

/** A moment as "2 hours ago" with the exact time as its tooltip, or as the exact time. */
export function DateTime({ iso, exact, nowMs, lang, className, id }: DateTimeProps) {
  const full = formatDateTime(iso, lang);
  const ms = new Date(iso).getTime();
  const shared = { className, id, dateTime: iso };
  if (exact || Number.isNaN(ms)) return <time {...shared}>{full}</time>;
  return <time {...shared} title={full}>{formatRelative(ms / 1000, nowMs, lang)}</time>;
}
