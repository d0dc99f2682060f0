import { useTranslation } from 'react-i18next';
import { TextField } from '../../components/fields';

const MIN_DAYS = 1;
const MAX_DAYS = 3650;

/** Global settings: how many days the activity log keeps (a spinbutton, 1..3650; the server checks too). */
export function ActivityDaysField({ value, onChange }: { value: number; onChange: (days: number) => void }) {
  const { t } = useTranslation();
  const change = (text: string): void => {
    const n = Number(text);
    if (text !== '' && Number.isInteger(n)) onChange(Math.min(MAX_DAYS, Math.max(MIN_DAYS, n)));
  };
  return (
    <fieldset className="fieldset">
      <legend>{t('titles.activity')}</legend>
      <TextField label={t('activity.days')} help={t('activity.daysHelp')} type="number" min={MIN_DAYS} max={MAX_DAYS} step={1} inputMode="numeric"
        value={String(value)} onChange={change} />
    </fieldset>
  );
}
