import { useAtomValue, useSetAtom } from 'jotai';
import { useState } from 'react';
import { useLocation, useSearchParams } from 'wouter';
import { safeRedirect, settingsPath } from '../../paths';
import { configAtom } from '../../state/config';
import { loginAtom, signupAtom } from '../../state/session';
import { enrolmentNeededAtom } from '../../state/two-factor';
import { loginError, type LoginError } from './login-error';

export interface LoginFields {
  username: string;
  password: string;
  confirm: string;
  /** The two-factor code, asked for once the server says it is required (beyond.md §4.2). */
  otp: string;
}

/** The login page's mode, submit and error, per product.md §2 'Login page' and §5 'Sign-up'. */
export function useLogin(captcha: { response: () => string; reset: () => void }) {
  const config = useAtomValue(configAtom);
  const login = useSetAtom(loginAtom);
  const signup = useSetAtom(signupAtom);
  const enrolmentNeeded = useSetAtom(enrolmentNeededAtom);
  const [, navigate] = useLocation();
  const [params] = useSearchParams();
  const [signingUp, setSigningUp] = useState(config.Signup && params.get('mode') === 'signup');
  const [error, setError] = useState<LoginError | null>(null);
  const [busy, setBusy] = useState(false);
  const [needsCode, setNeedsCode] = useState(false);

  const submit = async (fields: LoginFields): Promise<void> => {
    const recaptcha = config.ReCaptcha ? captcha.response() : '';
    if (config.ReCaptcha && !recaptcha) return setError({ key: 'wrongCredentials' });
    if (signingUp && fields.password !== fields.confirm) return setError({ key: 'passwordsDontMatch' });
    setBusy(true);
    setError(null);
    try {
      const credentials = { username: fields.username, password: fields.password, recaptcha, otp: needsCode ? fields.otp : '' };
      await (signingUp ? signup(credentials) : login(credentials));
      // requireTotp: a user without two-factor sign-in goes to its enrolment first (beyond.md §4.2).
      navigate(await enrolmentNeeded() ? settingsPath('profile') : safeRedirect(params.get('redirect')), { replace: true });
    } catch (failure) {
      const reason = loginError(failure);
      if (reason.key === 'otpRequired') setNeedsCode(true);
      setError(reason.key === 'wrongCode' && !needsCode ? { key: 'wrongCredentials' } : reason);
      captcha.reset();
      setBusy(false);
    }
  };

  const toggle = (): void => {
    setSigningUp(!signingUp);
    setError(null);
  };

  return { signingUp, canSignup: config.Signup, error, busy, submit, toggle, needsCode };
}
