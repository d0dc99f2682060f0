import { useAtomValue, useSetAtom } from 'jotai';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../components/fields';
import { configAtom } from '../../state/config';
import { SettingsForm } from './settings-form';
import { changePasswordAtom } from './state';

type Match = 'empty' | 'equal' | 'different';

function matchOf(password: string, confirm: string): Match {
  if (password === '' && confirm === '') return 'empty';
  return password === confirm ? 'equal' : 'different';
}

/**
 * The change-password card (product.md §2, §5): both fields turn green when equal and red when
 * not (also as aria-invalid), and Update does nothing unless they are equal and not empty.
 */
export function PasswordCard() {
  const { t } = useTranslation();
  const config = useAtomValue(configAtom);
  const change = useSetAtom(changePasswordAtom);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [current, setCurrent] = useState('');
  const match = matchOf(password, confirm);
  const valid = match === 'empty' ? undefined : match === 'equal';

  const save = async (): Promise<boolean> => {
    if (match !== 'equal') return false;
    await change({ password, currentPassword: current });
    setPassword('');
    setConfirm('');
    setCurrent('');
    return true;
  };

  return (
    <SettingsForm title={t('settings.changePassword')} save={save} success="settings.passwordUpdated" serverText>
      <TextField label={t('settings.newPassword')} type="password" autoComplete="new-password" value={password} onChange={setPassword} valid={valid} />
      <TextField label={t('settings.newPasswordConfirm')} type="password" autoComplete="new-password" value={confirm} onChange={setConfirm} valid={valid}
        help={match === 'empty' ? undefined : t(match === 'equal' ? 'settings.passwordsMatch' : 'settings.passwordsDiffer')} />
      {config.AuthMethod === 'json' && (
        <TextField label={t('users.currentPassword')} type="password" autoComplete="current-password" value={current} onChange={setCurrent} />
      )}
    </SettingsForm>
  );
}
