import { useAtomValue, useSetAtom } from 'jotai';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../components/icon';
import type { NoticeText } from '../../lib/notice';
import { reportIssueUrl } from '../../paths';
import { configAtom } from '../../state/config';
import { dismissNoticeAtom, noticesAtom, type Notice } from '../../state/notices';
import { useClearEdge } from './use-clear-edge';

function useText(message: NoticeText): string {
  const { t } = useTranslation();
  return 'text' in message ? message.text : t(message.key, message.values ?? {});
}

function Toast({ notice }: { notice: Notice }) {
  const { t } = useTranslation();
  const config = useAtomValue(configAtom);
  const dismiss = useSetAtom(dismissNoticeAtom);
  const text = useText(notice.message);
  const issueTracker = reportIssueUrl(config);
  if (notice.kind === 'progress') {
    return (
      <div className="toast toast-progress" role="status">
        <span className="spinner-wheel toast-icon" aria-hidden="true" />
        <p className="toast-text">{text}</p>
      </div>
    );
  }
  if (notice.kind === 'success') {
    return (
      <div className="toast toast-success" role="status">
        <Icon name="check" className="toast-icon" />
        <p className="toast-text">{text}</p>
      </div>
    );
  }
  return (
    <div className="toast toast-error" role="alert">
      <Icon name="warning" className="toast-icon" />
      <p className="toast-text">{text}</p>
      <div className="toast-actions">
        {issueTracker !== null && (
          <a className="toast-link" href={issueTracker} target="_blank" rel="noopener noreferrer">{t('notices.reportIssue')}</a>
        )}
        <button type="button" className="icon-button toast-close" aria-label={t('notices.close')} onClick={() => dismiss(notice.id)}>
          <Icon name="close" />
        </button>
      </div>
    </div>
  );
}

/**
 * The one notice area of the app (product.md §8), bottom right (bottom left in right-to-left
 * languages), at the top instead when it would cover the control just used: successes as
 * `status` for a second, errors as `alert` until closed (a new error replaces the old one).
 *
 * Written here rather than with a toast library: the contract needs a role per notice (status or
 * alert), an error that never times out, and a "Report Issue" link (to branding's issue tracker,
 * when one is set); that is 60 lines, while a library would add its own styles and a larger
 * first-page bundle for the login screen.
 */
export function Toaster() {
  const { t } = useTranslation();
  const notices = useAtomValue(noticesAtom);
  const list = useRef<HTMLDivElement>(null);
  const edge = useClearEdge(list, notices.length);
  return (
    <section className={edge === 'top' ? 'toaster toaster-top' : 'toaster'} aria-label={t('notices.region')}>
      <div className="toasts" ref={list}>
        {notices.map((notice) => <Toast key={notice.id} notice={notice} />)}
      </div>
    </section>
  );
}
