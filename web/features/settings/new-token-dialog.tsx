import type { CreatedTokenView } from '@contract/tokens';
import type { PermissionsWire } from '@contract/user';
import { useAtomValue, useSetAtom } from 'jotai';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../components/dialog';
import { Checkbox, TextField } from '../../components/fields';
import { failureText } from '../../lib/notice';
import { wholeNumberOf } from '../../lib/words';
import { configAtom } from '../../state/config';
import { notifyAtom } from '../../state/notices';
import { userAtom } from '../../state/session';
import type { PermissionKey } from './permissions-fieldset';
import { createTokenAtom } from './tokens-state';

const ORDER: PermissionKey[] = ['admin', 'create', 'delete', 'download', 'modify', 'rename', 'share', 'execute'];

/**
 * The permission boxes of a new token: only those its owner holds (a token never has more);
 * "Execute commands" only when the command runner is on, as in the user form.
 */
function TokenPermissions({ held, perm, onChange }: { held: PermissionsWire; perm: PermissionsWire; onChange: (perm: PermissionsWire) => void }) {
  const { t } = useTranslation();
  const exec = useAtomValue(configAtom).EnableExec;
  return (
    <fieldset className="fieldset permissions">
      <legend>{t('users.permissions')}</legend>
      {ORDER.filter((key) => held[key] && (key !== 'execute' || exec)).map((key) => (
        <Checkbox key={key} label={t(`perms.${key}`)} checked={perm[key]} onChange={(on) => onChange({ ...perm, [key]: on })} />
      ))}
    </fieldset>
  );
}

/** The token, shown this once, in a read-only box with "Copy". */
function CreatedToken({ created, onClose }: { created: CreatedTokenView; onClose: () => void }) {
  const { t } = useTranslation();
  const notify = useSetAtom(notifyAtom);
  const copy = (): void => void navigator.clipboard.writeText(created.token).then(
    () => notify({ kind: 'success', message: { key: 'tokens.copied' } }),
    (error: unknown) => notify({ kind: 'error', message: failureText(error) }),
  );
  return (
    <Dialog title={t('tokens.newTitle')} onClose={onClose} onSubmit={onClose}
      actions={<>
        <button type="button" className="button" onClick={copy}>{t('tokens.copy')}</button>
        <button type="submit" className="button button-primary" data-autofocus>{t('tokens.done')}</button>
      </>}>
      <TextField label={t('tokens.token')} value={created.token} readOnly mono spellCheck={false} onChange={() => undefined}
        onFocus={(e) => e.currentTarget.select()} help={t('tokens.shownOnce')} />
    </Dialog>
  );
}

/** Dialog "New token" (beyond.md §4.1): name, expiry in days, permissions; then the token once. */
export function NewTokenDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const held = useAtomValue(userAtom)?.perm;
  const create = useSetAtom(createTokenAtom);
  const notify = useSetAtom(notifyAtom);
  const [name, setName] = useState('');
  const [days, setDays] = useState('30');
  const [perm, setPerm] = useState<PermissionsWire | undefined>(held);
  const [created, setCreated] = useState<CreatedTokenView | null>(null);
  if (created) return <CreatedToken created={created} onClose={onClose} />;
  const submit = (): void => {
    if (name.trim() === '') return;
    void create({ name, expiresInDays: wholeNumberOf(days, 36500), perm }).then(setCreated,
      (error: unknown) => notify({ kind: 'error', message: failureText(error, true) }));
  };
  return (
    <Dialog title={t('tokens.newTitle')} onClose={onClose} onSubmit={submit}
      actions={<>
        <button type="button" className="button" onClick={onClose}>{t('prompts.cancel')}</button>
        <button type="submit" className="button button-primary">{t('tokens.create')}</button>
      </>}>
      <TextField label={t('tokens.name')} value={name} onChange={setName} required maxLength={100} data-autofocus />
      <TextField label={t('tokens.expiresInDays')} type="number" min={0} max={36500} step={1} value={days} onChange={setDays} help={t('tokens.expiresHelp')} />
      {held && perm && <TokenPermissions held={held} perm={perm} onChange={setPerm} />}
    </Dialog>
  );
}
