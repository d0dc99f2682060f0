import type { ParseKeys } from 'i18next';
import { errorKind, statusOf } from './errors';

/**
 * What a notice says: a translation key (rendered in the language in force when shown, so a
 * language change made by the save itself is followed) or a server's own text.
 */
export type NoticeText = { key: ParseKeys } | { text: string };

/**
 * The text for a failed request: the error screen's text for its status, or with `serverText`
 * the server's own message of a 400 (it names the rule that failed, e.g. a short password).
 */
export function failureText(error: unknown, serverText = false): NoticeText {
  const status = statusOf(error);
  if (serverText && status === 400 && error instanceof Error && error.message) return { text: error.message };
  return { key: `errors.${errorKind(status)}` };
}
