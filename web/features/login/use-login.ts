import { useAtomValue, useSetAtom } from 'jotai';
import { useState } from 'react';
import { useLocation, useSearchParams } from 'wouter';
import { safeRedirect } from '../../paths';
import { configAtom } from '../../state/config';
import { loginAtom, signupAtom } from '../../state/session';
import { loginError, type LoginError } from './login-error';

export interface LoginFields {
  username: string;
  password: string;
  confirm: string;
}

/** The login page's mode, submit and error, per product.md §2 'Login page' and §5 'Sign-up'. */
export function useLogin(captcha: { response: () => string; reset: () => void }) {
  const config = useAtomValue(configAtom);
  const login = useSetAtom(loginAtom);
  const signup = useSetAtom(signupAtom);
  const [, navigate] = useLocation();
  const [params] = useSearchParams();
  const [signingUp, setSigningUp] = useState(config.Signup && params.get('mode') === 'signup');
  const [error, setError] = useState<LoginError | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (fields: LoginFields): Promise<void> => {
    const recaptcha = config.ReCaptcha ? captcha.response() : '';
    if (config.ReCaptcha && !recaptcha) return setError({ key: 'wrongCredentials' });
    if (signingUp && fields.password !== fields.confirm) return setError({ key: 'passwordsDontMatch' });
    setBusy(true);
    setError(null);
    try {
      const credentials = { username: fields.username, password: fields.password, recaptcha };
      await (signingUp ? signup(credentials) : login(credentials));
      navigate(safeRedirect(params.get('redirect')), { replace: true });
    } catch (failure) {
      setError(loginError(failure));
      captcha.reset();
      setBusy(false);
    }
  };

  const toggle = (): void => {
    setSigningUp(!signingUp);
    setError(null);
  };

  return { signingUp, canSignup: config.Signup, error, busy, submit, toggle };
}
