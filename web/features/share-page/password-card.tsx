import { useSetAtom } from 'jotai';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../components/icon';
import { unlockShareAtom } from './state';

interface PasswordCardProps {
  hash: string;
  path: string;
  /** A non-empty password was refused (product.md §2: the notice comes only then). */
  wrong: boolean;
  /** A password is being checked. */
  checking: boolean;
}

/** The card titled Password for protected links; Enter or the button submits. */
export function PasswordCard({ hash, path, wrong, checking }: PasswordCardProps) {
  const { t } = useTranslation();
  const unlock = useSetAtom(unlockShareAtom);
  const [password, setPassword] = useState('');
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    void unlock({ hash, path, password });
  };
  return (
    <form className="card share-password" onSubmit={submit} aria-busy={checking}>
      <div className="share-password-head">
        <span className="share-password-icon"><Icon name="lock" /></span>
        <h1 className="card-title">{t('login.password')}</h1>
      </div>
      <div className="card-body">
        <p className="share-password-hint" id="share-password-hint">{t('sharePage.passwordHint')}</p>
        <label className="field">
          <span className="visually-hidden">{t('login.password')}</span>
          <input className="input" type="password" value={password} autoFocus autoComplete="off" aria-describedby="share-password-hint"
            aria-invalid={wrong} onChange={(e) => setPassword(e.target.value)} />
        </label>
        {wrong && <p className="form-error" role="alert">{t('login.wrongCredentials')}</p>}
      </div>
      <div className="card-actions">
        <button type="submit" className="button button-primary" disabled={checking}>{t('share.submit')}</button>
      </div>
    </form>
  );
}
