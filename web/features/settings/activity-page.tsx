import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { activityCsvUrl } from '../../api/activity';
import { Spinner } from '../../components/spinner';
import { startDownload } from '../../lib/download';
import { failureText } from '../../lib/notice';
import { notifyAtom } from '../../state/notices';
import { ActivityFilters } from './activity-filters';
import { activityListAtom, EMPTY_FORM, filtersOf, loadActivityAtom, loadMoreActivityAtom, type ActivityForm } from './activity-state';
import { ActivityTable } from './activity-table';
import { SettingsShell } from './settings-shell';

function ActivityResults({ onFail }: { onFail: (error: unknown) => void }) {
  const { t } = useTranslation();
  const list = useAtomValue(activityListAtom);
  const more = useSetAtom(loadMoreActivityAtom);
  if (!list.loaded) return <Spinner label={t('app.loading')} />;
  if (list.items.length === 0) return <p className="empty">{t('activity.empty')}</p>;
  return (
    <>
      <ActivityTable items={list.items} />
      {list.next !== null && (
        <div className="activity-more">
          <button type="button" className="button" onClick={() => void more().catch(onFail)}>{t('activity.loadMore')}</button>
        </div>
      )}
    </>
  );
}

/** Settings > Activity (admins, beyond.md §8): who did what, filtered, paged, exported as CSV. */
export function ActivityPage() {
  const { t } = useTranslation();
  const load = useSetAtom(loadActivityAtom);
  const notify = useSetAtom(notifyAtom);
  const fail = (error: unknown): void => notify({ kind: 'error', message: failureText(error) });
  const apply = (form: ActivityForm): void => void load(filtersOf(form)).catch(fail);
  // Entering the page shows the newest entries, unfiltered.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- once per visit; `apply` is new each render
  useEffect(() => apply(EMPTY_FORM), []);
  return (
    <SettingsShell>
      <section className="card settings-card wide activity-card">
        <h2 className="card-title">{t('titles.activity')}</h2>
        <ActivityFilters onApply={apply} onExport={(form) => startDownload(activityCsvUrl(filtersOf(form)))} />
        <ActivityResults onFail={fail} />
      </section>
    </SettingsShell>
  );
}
