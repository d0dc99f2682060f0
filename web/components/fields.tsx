import { LOCALES } from '../i18n/locales';

interface CheckboxProps {
  label: string;
  checked: boolean;
  disabled?: boolean;
  onChange: (on: boolean) => void;
}

/** A labelled checkbox row of the settings forms. */
export function Checkbox({ label, checked, disabled, onChange }: CheckboxProps) {
  return (
    <label className="checkbox">
      <input type="checkbox" checked={checked} disabled={disabled} onChange={(e) => onChange(e.target.checked)} />
      <span>{label}</span>
    </label>
  );
}

/** The language picker: every UI language, each under its own name and language tag. */
export function LanguageSelect({ label, value, onChange }: { label: string; value: string; onChange: (code: string) => void }) {
  return (
    <label className="field">
      <span className="field-label">{label}</span>
      <select className="input" value={value} onChange={(e) => onChange(e.target.value)}>
        {LOCALES.map((l) => <option key={l.code} value={l.code} lang={l.lang}>{l.name}</option>)}
      </select>
    </label>
  );
}
