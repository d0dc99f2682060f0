import { useSetAtom } from 'jotai';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ShareUnit } from '../../api/shares';
import { Dialog } from '../../components/dialog';
import { TextField } from '../../components/fields';
import { failureText } from '../../lib/notice';
import type { Target } from '../../state/listing';
import { notifyAtom } from '../../state/notices';
import { useLinkKind } from './share-kind-fields';
import { createLinkAtom } from './state';

const UNITS: ShareUnit[] = ['seconds', 'minutes', 'hours', 'days'];
const MAX_DURATION = 2_147_483_647;

/** '' or '0' is permanent; otherwise a whole number from 1 to 2147483647 (product.md §5), else null. */
export function durationOf(text: string): string | null {
  const trimmed = text.trim();
  if (trimmed === '' || trimmed === '0') return '';
  if (!/^\d+$/.test(trimmed)) return null;
  const value = Number(trimmed);
  return value >= 1 && value <= MAX_DURATION ? String(value) : null;
}

/** The creation mode of the share prompt: duration (hours by default), unit and an optional password. */
export function ShareForm({ item, onCreated, onCancel }: { item: Target; onCreated: () => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const create = useSetAtom(createLinkAtom);
  const notify = useSetAtom(notifyAtom);
  const [duration, setDuration] = useState('');
  const [unit, setUnit] = useState<ShareUnit>('hours');
  const [password, setPassword] = useState('');
  const [invalid, setInvalid] = useState(false);
  const linkKind = useLinkKind(item.isDir);

  const submit = (): void => {
    const expires = durationOf(duration);
    if (expires === null) return setInvalid(true);
    const kind = linkKind.read();
    if (kind === null) return;
    create({ path: item.path, link: { expires, unit, password: password.trim(), ...kind } })
      .then(onCreated, (error: unknown) => notify({ kind: 'error', message: failureText(error) }));
  };

  return (
    <Dialog title={t('shareDialog.title')} onClose={onCancel} onSubmit={submit} className="dialog-wide"
      actions={
        <>
          <button type="button" className="button" onClick={onCancel}>{t('prompts.cancel')}</button>
          <button type="submit" className="button button-primary">{t('shareDialog.create')}</button>
        </>
      }>
      <div className="share-duration">
        <label className="field">
          <span className="field-label">{t('shareDialog.duration')}</span>
          <input className="input" type="number" min={1} max={MAX_DURATION} step={1} value={duration} aria-invalid={invalid || undefined}
            aria-describedby="share-duration-help" onChange={(e) => { setDuration(e.target.value); setInvalid(false); }} />
        </label>
        <label className="field">
          <span className="field-label">{t('shareDialog.unit')}</span>
          <select className="input" value={unit} onChange={(e) => setUnit(e.target.value as ShareUnit)}>
            {UNITS.map((u) => <option key={u} value={u}>{t(`shareDialog.${u}`)}</option>)}
          </select>
        </label>
      </div>
      <p id="share-duration-help" className={invalid ? 'form-error' : 'field-help'} role={invalid ? 'alert' : undefined}>
        {invalid ? t('shareDialog.durationRange') : t('shareDialog.permanentHint')}
      </p>
      {/* Shown as typed: it is a password to hand to the visitors, not the user's own. */}
      <TextField label={t('login.password')} value={password} onChange={setPassword} help={t('shareDialog.passwordHint')}
        autoComplete="off" spellCheck={false} />
      {linkKind.fields}
    </Dialog>
  );
}
