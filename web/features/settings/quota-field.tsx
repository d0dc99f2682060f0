import { parseSizeText } from '@contract/size-text';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'] as const;

/** A quota as the textbox shows it: the largest unit that keeps it short ("1 MiB", "1.5 GiB"); '' for none. */
export function quotaText(bytes: number): string {
  if (bytes <= 0) return '';
  let unit = 0;
  while (unit < UNITS.length - 1 && bytes >= 1024 ** (unit + 1)) unit += 1;
  // ASCII digits: the text is read back by the same parser as what the admin types.
  return `${Math.round((bytes / 1024 ** unit) * 100) / 100} ${UNITS[unit]}`;
}

/**
 * The user form's textbox "Quota" (beyond.md §6): a size such as "500 MB" or "10 GiB", empty for
 * none. Text it cannot read is marked at once with a message under it, and blocks the save (the
 * form's own validation) until corrected; a readable size reaches the form as bytes.
 */
export function QuotaField({ quota, onChange }: { quota: number; onChange: (bytes: number) => void }) {
  const { t } = useTranslation();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [text, setText] = useState(() => quotaText(quota));
  const bytes = text.trim() === '' ? 0 : parseSizeText(text);
  const invalid = bytes === null;
  useEffect(() => input.current?.setCustomValidity(invalid ? t('quota.invalid') : ''), [invalid, t]);
  const change = (value: string): void => {
    setText(value);
    const next = value.trim() === '' ? 0 : parseSizeText(value);
    if (next !== null) onChange(next);
  };
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>{t('quota.label')}</label>
      {/* A size reads left to right ("10 GiB"), also in a right-to-left language. */}
      <input ref={input} id={id} dir="ltr" className={`input${invalid ? ' input-invalid' : ''}`} value={text} inputMode="text" autoComplete="off" spellCheck={false}
        placeholder={t('quota.placeholder')} aria-invalid={invalid || undefined} aria-describedby={`${id}-help`} onChange={(e) => change(e.target.value)} />
      <span id={`${id}-help`} className={invalid ? 'field-help quota-invalid' : 'field-help'} role={invalid ? 'alert' : undefined}>
        {invalid ? t('quota.invalid') : bytes === 0 ? t('quota.none') : t('quota.help')}
      </span>
    </div>
  );
}
