import { useSetAtom } from 'jotai';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearchParams } from 'wouter';
import { Spinner } from '../../components/spinner';
import { safeRedirect } from '../../paths';
import { loginAtom } from '../../state/session';
import { loginError, type LoginError } from './login-error';
import { LoginMessage } from './login-message';

/** noauth and proxy modes: POST /api/login with empty credentials, then go on (api.md §2.4). */
export function AutoLogin() {
  const { t } = useTranslation();
  const login = useSetAtom(loginAtom);
  const [, navigate] = useLocation();
  const [params] = useSearchParams();
  const [error, setError] = useState<LoginError | null>(null);
  const redirect = safeRedirect(params.get('redirect'));

  useEffect(() => {
    login({ username: '', password: '', recaptcha: '' }).then(
      () => navigate(redirect, { replace: true }),
      (failure: unknown) => setError(loginError(failure)),
    );
  }, [login, navigate, redirect]);

  return error ? <LoginMessage error={error} /> : <Spinner label={t('app.loading')} />;
}
