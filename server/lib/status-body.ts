import { STATUS_CODES } from 'node:http';

/**
 * The plain-text body of api.md §1.6: "<code> <reason phrase>\n", with the message in
 * parentheses for 400 only, e.g. "400 Bad Request (password is empty)\n".
 */
export function statusBody(status: number, message?: string): string {
  const reason = STATUS_CODES[status] ?? 'Unknown';
  const detail = status === 400 && message ? ` (${message})` : '';
  return `${status} ${reason}${detail}\n`;
}

/** Headers that go with every status body (Go's http.Error). */
export const statusBodyHeaders = {
  'content-type': 'text/plain; charset=utf-8',
  'x-content-type-options': 'nosniff',
} as const;
