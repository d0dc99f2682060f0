import { useSetAtom } from 'jotai';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { unlockShareAtom } from './state';

/** The card titled Password for protected links; Enter or the button submits. */
export function PasswordCard({ hash, path, wrong }: { hash: string; path: string; wrong: boolean }) {
  const { t } = useTranslation();
  const unlock = useSetAtom(unlockShareAtom);
  const [password, setPassword] = useState('');
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    void unlock({ hash, path, password });
  };
  return (
    <form className="card share-password" onSubmit={submit}>
      <h1 className="card-title">{t('login.password')}</h1>
      <div className="card-body">
        <label className="field">
          <span className="visually-hidden">{t('login.password')}</span>
          <input className="input" type="password" value={password} autoFocus autoComplete="off" onChange={(e) => setPassword(e.target.value)} />
        </label>
        {wrong && <p className="form-error" role="alert">{t('login.wrongCredentials')}</p>}
      </div>
      <div className="card-actions">
        <button type="submit" className="button button-primary">{t('share.submit')}</button>
      </div>
    </form>
  );
}
