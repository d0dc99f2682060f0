import type { ActivityEntryView } from '@contract/activity';
import { useTranslation } from 'react-i18next';
import { currentLang } from '../../i18n';
import { formatDateTime, formatSize } from '../../lib/format';
import { actionLabelKey } from './activity-state';

function ActionCell({ action }: { action: string }) {
  const { t } = useTranslation();
  const key = actionLabelKey(action);
  return <>{key ? t(`activity.actions.${key}`) : action}</>;
}

function PathCell({ entry }: { entry: ActivityEntryView }) {
  const { t } = useTranslation();
  if (!entry.path && !entry.destination && !entry.detail) return null;
  return (
    <span className="activity-path">
      {entry.path && <span className="mono" dir="ltr">{entry.path}</span>}
      {/* First-strong isolates keep a left-to-right path whole inside a right-to-left sentence. */}
      {entry.destination && <span className="activity-destination">{t('activity.to', { path: `\u2068${entry.destination}\u2069` })}</span>}
      {entry.detail && <bdi className="activity-detail">{entry.detail}</bdi>}
    </span>
  );
}

function Row({ entry }: { entry: ActivityEntryView }) {
  const { t } = useTranslation();
  const lang = currentLang();
  const failed = entry.result === 'failed';
  return (
    <tr className={failed ? 'activity-failed' : undefined}>
      <td data-label={t('activity.time')} className="activity-time"><time dateTime={entry.time}>{formatDateTime(entry.time, lang)}</time></td>
      {/* Direction on the content, not the cell: the cell's label (phone) follows the page. */}
      <td data-label={t('activity.user')} className="cell-primary">{entry.user ? <bdi>{entry.user}</bdi> : <em>{t('activity.anonymous')}</em>}</td>
      <td data-label={t('activity.action')}><ActionCell action={entry.action} /></td>
      <td data-label={t('activity.path')}><PathCell entry={entry} /></td>
      <td data-label={t('activity.size')} className="activity-number">{entry.bytes > 0 ? formatSize(entry.bytes, lang) : ''}</td>
      <td data-label={t('activity.result')}>
        <span className={failed ? 'badge badge-failed' : 'badge badge-yes'}>{failed ? t('activity.failed', { status: entry.status }) : t('activity.ok')}</span>
      </td>
      <td data-label={t('activity.address')} className="activity-address">{entry.address && <span className="mono" dir="ltr">{entry.address}</span>}</td>
    </tr>
  );
}

/** The activity entries, newest first: stacked rows on a phone, a table in its own scroll box on a desk. */
export function ActivityTable({ items }: { items: readonly ActivityEntryView[] }) {
  const { t } = useTranslation();
  return (
    <div className="activity-scroll">
      <table className="table responsive-table activity-table">
        <thead>
          <tr>
            <th scope="col">{t('activity.time')}</th>
            <th scope="col">{t('activity.user')}</th>
            <th scope="col">{t('activity.action')}</th>
            <th scope="col">{t('activity.path')}</th>
            <th scope="col">{t('activity.size')}</th>
            <th scope="col">{t('activity.result')}</th>
            <th scope="col">{t('activity.address')}</th>
          </tr>
        </thead>
        <tbody>
          {items.map((entry, i) => <Row key={`${entry.time}-${i}`} entry={entry} />)}
        </tbody>
      </table>
    </div>
  );
}
