import { useTranslation } from 'react-i18next';
import { Checkbox, LanguageSelect } from '../../components/fields';
import type { EditedUser } from './users-state';

interface UserFieldsProps {
  user: EditedUser;
  isNew: boolean;
  setField: <K extends keyof EditedUser>(key: K, value: EditedUser[K]) => void;
}

/** Username, password, scope, language and the password lock of the user edit form. */
export function UserFields({ user, isNew, setField }: UserFieldsProps) {
  const { t } = useTranslation();
  return (
    <>
      <label className="field">
        <span className="field-label">{t('login.username')}</span>
        <input className="input" value={user.username} required autoComplete="off" onChange={(e) => setField('username', e.target.value)} />
      </label>
      <label className="field">
        <span className="field-label">{t('login.password')}</span>
        <input className="input" type="password" value={user.password ?? ''} required={isNew} autoComplete="new-password"
          placeholder={isNew ? undefined : t('users.passwordPlaceholder')} onChange={(e) => setField('password', e.target.value)} />
      </label>
      <label className="field">
        <span className="field-label">{t('users.scope')}</span>
        <input className="input mono" value={user.scope} onChange={(e) => setField('scope', e.target.value)} />
      </label>
      <LanguageSelect label={t('settings.language')} value={user.locale} onChange={(locale) => setField('locale', locale)} />
      <Checkbox label={t('users.lockPassword')} checked={user.lockPassword} disabled={user.perm.admin} onChange={(on) => setField('lockPassword', on)} />
    </>
  );
}
