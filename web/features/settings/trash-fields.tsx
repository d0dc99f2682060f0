import type { SettingsView } from '@contract/settings';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Checkbox } from '../../components/fields';

type Trash = SettingsView['trash'];

const MIN_DAYS = 1;
const MAX_DAYS = 3650;

/** The days as typed, kept between 1 and 3650; null while the field holds no number. */
export function daysOf(text: string): number | null {
  if (!/^\s*\d+\s*$/.test(text)) return null;
  return Math.min(MAX_DAYS, Math.max(MIN_DAYS, Number(text)));
}

/** The recycle bin's global settings (beyond.md §3): "Keep deleted items in the trash", "Days in the trash". */
export function TrashFields({ trash, onChange }: { trash: Trash; onChange: (trash: Trash) => void }) {
  const { t } = useTranslation();
  const id = useId();
  const [text, setText] = useState(String(trash.days));
  const type = (value: string): void => {
    setText(value);
    const days = daysOf(value);
    if (days !== null) onChange({ ...trash, days });
  };
  return (
    <fieldset className="fieldset">
      <legend>{t('trash.settings')}</legend>
      <Checkbox label={t('trash.keep')} checked={trash.enabled} onChange={(enabled) => onChange({ ...trash, enabled })} help={t('trash.keepHelp')} />
      <div className="field">
        <label className="field-label" htmlFor={id}>{t('trash.days')}</label>
        <input id={id} type="number" className="input trash-days" min={MIN_DAYS} max={MAX_DAYS} step={1} value={text} inputMode="numeric"
          aria-describedby={`${id}-help`} onChange={(e) => type(e.target.value)} onBlur={() => setText(String(trash.days))} />
        <span id={`${id}-help`} className="field-help">{t('trash.daysHelp')}</span>
      </div>
    </fieldset>
  );
}
