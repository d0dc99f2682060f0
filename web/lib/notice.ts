import type { ParseKeys } from 'i18next';
import { statusOf } from './errors';
import { serverMessageText, statusText } from './server-message';

/**
 * What a notice says: a translation key with the numbers it names (rendered in the language in
 * force when shown, so a language change made by the save itself is followed) or a text already
 * translated by its caller.
 */
export type NoticeText = { key: ParseKeys; values?: Record<string, number> } | { text: string };

/**
 * The text for a failed request, always translated (never the server's raw status line): the
 * generic text of its status, or with `serverText` the sentence for a 400's own message (it
 * names the rule that failed, e.g. a short password), see web/lib/server-message.ts.
 */
export function failureText(error: unknown, serverText = false): NoticeText {
  const status = statusOf(error);
  if (serverText && status === 400 && error instanceof Error) return serverMessageText(status, error.message);
  return { key: statusText(status) };
}
