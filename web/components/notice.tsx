import type { ParseKeys } from 'i18next';
import { useTranslation } from 'react-i18next';
import { errorKind, statusOf } from '../lib/errors';

/**
 * A form's outcome line: a translation key (rendered in the language in force when shown, so a
 * language change made by the save itself is followed) or a server's own text.
 */
export type Notice = { key: ParseKeys } | { text: string } | null;

/** The outcome of the last submit, announced politely to screen readers. */
export function NoticeLine({ notice }: { notice: Notice }) {
  const { t } = useTranslation();
  const text = notice === null ? '' : 'text' in notice ? notice.text : t(notice.key);
  return <p className="form-status" role="status">{text}</p>;
}

/**
 * The notice for a failed request: the error screen's text for its status, or with
 * `serverText` the server's own message of a 400 (it names the rule that failed).
 */
export function failureNotice(error: unknown, serverText = false): Notice {
  const status = statusOf(error);
  if (serverText && status === 400 && error instanceof Error) return { text: error.message };
  return { key: `errors.${errorKind(status)}` };
}
