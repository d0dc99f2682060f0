import { useSetAtom } from 'jotai';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../components/dialog';
import { statusOf } from '../../lib/errors';
import { failureText } from '../../lib/notice';
import { notifyAtom } from '../../state/notices';

interface NamePromptProps {
  title: string;
  message: string;
  submitLabel: string;
  initial?: string;
  /** Receives the trimmed, non-empty name; a rejection shows as an error notice. */
  onSubmit: (name: string) => Promise<void>;
  onClose: () => void;
}

/**
 * A dialog asking for a name (new folder, new file, rename). Names are trimmed (product.md §5)
 * and an empty one is refused here: the product this spec was written from let it through.
 */
export function NamePrompt({ title, message, submitLabel, initial = '', onSubmit, onClose }: NamePromptProps) {
  const { t } = useTranslation();
  const notify = useSetAtom(notifyAtom);
  const [name, setName] = useState(initial);
  const [empty, setEmpty] = useState(false);
  const [busy, setBusy] = useState(false);

  const submit = async (): Promise<void> => {
    const trimmed = name.trim();
    if (!trimmed) return setEmpty(true);
    setBusy(true);
    try {
      await onSubmit(trimmed);
    } catch (error) {
      setBusy(false);
      notify({ kind: 'error', message: statusOf(error) === 409 ? { key: 'prompts.exists' } : failureText(error, true) });
    }
  };

  return (
    <Dialog title={title} onClose={onClose} onSubmit={() => void submit()}
      actions={
        <>
          <button type="button" className="button" onClick={onClose}>{t('prompts.cancel')}</button>
          <button type="submit" className="button button-primary" disabled={busy}>{submitLabel}</button>
        </>
      }>
      <p>{message}</p>
      <label className="field">
        <span className="field-label">{t('prompts.name')}</span>
        <input className="input" value={name} autoComplete="off" spellCheck={false} dir="auto" aria-invalid={empty || undefined}
          aria-describedby={empty ? 'name-error' : undefined}
          onChange={(e) => { setName(e.target.value); setEmpty(false); }}
          onFocus={(e) => selectBaseName(e.target)} />
      </label>
      {empty && <p id="name-error" className="form-error" role="alert">{t('prompts.emptyName')}</p>}
    </Dialog>
  );
}

/** Selects the name without its extension, as file managers do when renaming. */
function selectBaseName(input: HTMLInputElement): void {
  const dot = input.value.lastIndexOf('.');
  input.setSelectionRange(0, dot > 0 ? dot : input.value.length);
}
