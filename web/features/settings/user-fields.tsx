import { useTranslation } from 'react-i18next';
import { LOCALES } from '../../i18n/locales';
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
      <label className="field">
        <span className="field-label">{t('settings.language')}</span>
        <select className="input" value={user.locale} onChange={(e) => setField('locale', e.target.value)}>
          {LOCALES.map((l) => <option key={l.code} value={l.code} lang={l.lang}>{l.name}</option>)}
        </select>
      </label>
      <label className="checkbox">
        <input type="checkbox" checked={user.lockPassword} disabled={user.perm.admin} onChange={(e) => setField('lockPassword', e.target.checked)} />
        <span>{t('users.lockPassword')}</span>
      </label>
    </>
  );
}
