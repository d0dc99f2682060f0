import type { ParseKeys } from 'i18next';
import { useSetAtom } from 'jotai';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { failureText } from '../../lib/notice';
import { notifyAtom } from '../../state/notices';

interface SettingsFormProps {
  title: string;
  /** Runs on submit; resolving `false` means there was nothing to save (no notice). */
  save: () => Promise<unknown>;
  /** The success notice (product.md §8); 'Settings updated!' unless said otherwise. */
  success?: ParseKeys;
  /** Show a 400's own message instead of the generic one (the server explains what to fix). */
  serverText?: boolean;
  /** The submit button's text; 'Update' unless said otherwise. */
  submitLabel?: string;
  /** Buttons shown before the submit button (e.g. Delete). */
  extraActions?: ReactNode;
  className?: string;
  children: ReactNode;
}

/** A settings card: title, fields and the submit button; the outcome is a notice. */
export function SettingsForm({ title, save, success = 'settings.updated', serverText = false, submitLabel, extraActions, className, children }: SettingsFormProps) {
  const { t } = useTranslation();
  const notify = useSetAtom(notifyAtom);
  const [busy, setBusy] = useState(false);
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    save().then(
      (outcome) => {
        setBusy(false);
        if (outcome !== false) notify({ kind: 'success', message: { key: success } });
      },
      (error: unknown) => {
        setBusy(false);
        notify({ kind: 'error', message: failureText(error, serverText) });
      },
    );
  };
  return (
    <form className={className ? `card settings-card ${className}` : 'card settings-card'} onSubmit={submit}>
      <h2 className="card-title">{title}</h2>
      <div className="card-body">{children}</div>
      <div className="card-actions">
        {extraActions}
        <button type="submit" className="button button-primary" aria-disabled={busy}>{submitLabel ?? t('settings.save')}</button>
      </div>
    </form>
  );
}
