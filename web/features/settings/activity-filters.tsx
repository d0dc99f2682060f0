import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { SelectField, TextField } from '../../components/fields';
import { Icon } from '../../components/icon';
import { ACTION_LABELS, EMPTY_FORM, type ActivityForm } from './activity-state';

interface ActivityFiltersProps {
  onApply: (form: ActivityForm) => void;
  onExport: (form: ActivityForm) => void;
}

/** The filters of the activity page (user, action, path, from, to) and the CSV export of the same. */
export function ActivityFilters({ onApply, onExport }: ActivityFiltersProps) {
  const { t } = useTranslation();
  const [form, setForm] = useState<ActivityForm>(EMPTY_FORM);
  const set = (patch: Partial<ActivityForm>): void => setForm((f) => ({ ...f, ...patch }));
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    onApply(form);
  };
  const clear = (): void => {
    setForm(EMPTY_FORM);
    onApply(EMPTY_FORM);
  };
  return (
    <form className="activity-filters" role="search" aria-label={t('activity.filters')} onSubmit={submit}>
      <div className="activity-fields">
        <TextField label={t('activity.user')} value={form.user} onChange={(user) => set({ user })} autoComplete="off" spellCheck={false} />
        <SelectField label={t('activity.action')} value={form.action} onChange={(action) => set({ action })}>
          <option value="">{t('activity.anyAction')}</option>
          {ACTION_LABELS.map(([action, key]) => <option key={action} value={action}>{t(`activity.actions.${key}`)}</option>)}
        </SelectField>
        <TextField label={t('activity.path')} value={form.path} mono spellCheck={false} onChange={(path) => set({ path })} />
        <TextField label={t('activity.since')} type="date" value={form.since} onChange={(since) => set({ since })} />
        <TextField label={t('activity.until')} type="date" value={form.until} onChange={(until) => set({ until })} />
      </div>
      <div className="card-actions activity-actions">
        <button type="submit" className="button button-primary"><Icon name="search" /><span>{t('activity.apply')}</span></button>
        <button type="button" className="button" onClick={clear}>{t('activity.clear')}</button>
        <button type="button" className="button" onClick={() => onExport(form)}><Icon name="download" /><span>{t('activity.exportCsv')}</span></button>
      </div>
    </form>
  );
}
