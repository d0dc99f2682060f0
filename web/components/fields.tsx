import { useId, type InputHTMLAttributes, type KeyboardEvent, type ReactNode } from 'react';
import { LOCALES } from '../i18n/locales';

interface CheckboxProps {
  label: string;
  checked: boolean;
  disabled?: boolean;
  help?: string;
  onChange: (on: boolean) => void;
}

/** A labelled checkbox row of the settings forms. */
export function Checkbox({ label, checked, disabled, help, onChange }: CheckboxProps) {
  const helpId = useId();
  return (
    <div className="checkbox-row">
      <label className="checkbox">
        <input type="checkbox" checked={checked} disabled={disabled} aria-describedby={help ? helpId : undefined}
          onChange={(e) => onChange(e.target.checked)} />
        <span>{label}</span>
      </label>
      {help && <p id={helpId} className="field-help">{help}</p>}
    </div>
  );
}

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value' | 'className'>;

interface TextFieldProps extends InputProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  help?: string;
  mono?: boolean;
  /** The field is invalid (red, aria-invalid) or valid (green); undefined: neither. */
  valid?: boolean;
}

/** Enter in a list editor's field must not submit the whole settings form (product.md §5). */
export function ignoreEnter(event: KeyboardEvent): void {
  if (event.key === 'Enter') event.preventDefault();
}

function validity(valid: boolean | undefined): string {
  if (valid === undefined) return '';
  return valid ? ' input-valid' : ' input-invalid';
}

/**
 * A labelled text input with an optional hint under it. The hint is outside the <label>, so the
 * field's accessible name is the label alone (ui.md) and the hint is its description.
 */
export function TextField({ label, value, onChange, help, mono, valid, ...rest }: TextFieldProps) {
  const id = useId();
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>{label}</label>
      {/* Paths and commands read left to right, also in a right-to-left language. */}
      <input id={id} dir={mono ? 'ltr' : undefined} {...rest} className={`input${mono ? ' mono' : ''}${validity(valid)}`} value={value}
        aria-invalid={valid === undefined ? undefined : !valid} aria-describedby={help ? `${id}-help` : undefined}
        onChange={(e) => onChange(e.target.value)} />
      {help && <span id={`${id}-help`} className="field-help">{help}</span>}
    </div>
  );
}

interface SelectFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  help?: string;
  children: ReactNode;
}

/** A labelled select (a combobox named by its label). */
export function SelectField({ label, value, onChange, help, children }: SelectFieldProps) {
  const id = useId();
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>{label}</label>
      <select id={id} className="input" value={value} aria-describedby={help ? `${id}-help` : undefined} onChange={(e) => onChange(e.target.value)}>
        {children}
      </select>
      {help && <span id={`${id}-help`} className="field-help">{help}</span>}
    </div>
  );
}

/**
 * The languages by their own names, as a reader looks for theirs: Latin-script names
 * alphabetically, then the other scripts (Unicode's root collation).
 */
const BY_OWN_NAME = [...LOCALES].sort((a, b) => a.name.localeCompare(b.name, 'und'));

/** The language picker: every UI language, each under its own name and language tag. */

export function LanguageSelect({ label, value, onChange }: { label: string; value: string; onChange: (code: string) => void }) {
  return (
    <SelectField label={label} value={value} onChange={onChange}>
      {BY_OWN_NAME.map((l) => <option key={l.code} value={l.code} lang={l.lang}>{l.name}</option>)}
    </SelectField>
  );
}
