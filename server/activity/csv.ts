import type { ActivityEntry } from './entry';

/** The CSV columns, in order; the header row names them. */
export const CSV_COLUMNS = ['time', 'user', 'address', 'action', 'path', 'destination', 'bytes', 'result', 'status', 'detail'] as const;

/**
 * One CSV cell (RFC 4180): quoted when it holds a quote, comma or line break, quotes doubled. A
 * text starting with = + - @ (or a tab or carriage return) gets a leading ' so a spreadsheet
 * never runs it as a formula (CSV injection): names and paths come from users.
 */
export function csvCell(value: string | number): string {
  if (typeof value === 'number') return String(value);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** A CSV record with its CRLF line end. */
export function csvRow(values: ReadonlyArray<string | number>): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}

/** The header row. */
export function csvHeader(): string {
  return csvRow(CSV_COLUMNS);
}

/** The record of one entry. */
export function csvEntry(entry: ActivityEntry): string {
  return csvRow(CSV_COLUMNS.map((column) => entry[column]));
}
