import { useAtomValue } from 'jotai';
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { instanceName } from '../../lib/page-config';
import { configAtom } from '../../state/config';
import { themeAtom } from '../../state/theme';
import { AutoLogin } from './auto-login';
import { LoginMessage } from './login-message';
import { OidcSignIn } from './oidc-sign-in';
import { useLogin, type LoginFields } from './use-login';
import { useRecaptcha } from './use-recaptcha';

function Field({ name, label, type, value, onChange, autoComplete }: {
  name: keyof LoginFields; label: string; type: string; value: string;
  onChange: (name: keyof LoginFields, value: string) => void; autoComplete: string;
}) {
  const code = name === 'otp';
  return (
    <label className="field">
      <span className="field-label">{label}</span>
      <input className="input" name={name} type={type} value={value} autoComplete={autoComplete} required={name === 'username' || code}
        autoFocus={code} autoCapitalize={code ? 'none' : undefined} onChange={(e) => onChange(name, e.target.value)} />
    </label>
  );
}

function LoginForm() {
  const { t } = useTranslation();
  const config = useAtomValue(configAtom);
  const theme = useAtomValue(themeAtom);
  const captchaRef = useRef<HTMLDivElement>(null);
  const captcha = useRecaptcha(captchaRef, config.ReCaptcha ? (config.ReCaptchaKey ?? '') : null, theme);
  const { signingUp, canSignup, error, busy, submit, toggle, needsCode } = useLogin(captcha);
  const [fields, setFields] = useState<LoginFields>({ username: '', password: '', confirm: '', otp: '' });
  const change = (name: keyof LoginFields, value: string): void => setFields((f) => ({ ...f, [name]: value }));
  const onSubmit = (event: FormEvent): void => {
    event.preventDefault();
    void submit(fields);
  };
  const newPassword = signingUp ? 'new-password' : 'current-password';

  return (
    <form className="login-form" onSubmit={onSubmit} aria-busy={busy}>
      <Field name="username" label={t('login.username')} type="text" value={fields.username} onChange={change} autoComplete="username" />
      <Field name="password" label={t('login.password')} type="password" value={fields.password} onChange={change} autoComplete={newPassword} />
      {signingUp && (
        <Field name="confirm" label={t('login.passwordConfirm')} type="password" value={fields.confirm} onChange={change} autoComplete="new-password" />
      )}
      {needsCode && !signingUp && <Field name="otp" label={t('totp.code')} type="text" value={fields.otp} onChange={change} autoComplete="one-time-code" />}
      {config.ReCaptcha && <div ref={captchaRef} className="captcha" role="group" aria-label={t('login.captcha')} />}
      {error && <LoginMessage error={error} />}
      <button className="button button-primary" type="submit" disabled={busy}>
        {signingUp ? t('login.signup') : t('login.submit')}
      </button>
      {canSignup && (
        <button className="button button-link" type="button" onClick={toggle}>
          {signingUp ? t('login.loginInstead') : t('login.createAccount')}
        </button>
      )}
    </form>
  );
}

/** The login and sign-up page; without a login page (noauth, proxy) it signs in by itself. */
export function LoginPage() {
  const config = useAtomValue(configAtom);
  return (
    <div className="login">
      <div className="login-card card">
        <img className="login-logo" src={`${config.StaticURL}/img/logo.svg`} alt="" width="64" height="64" />
        <h1 className="login-title">{instanceName(config)}</h1>
        {config.LoginPage ? config.PasswordLogin && <LoginForm /> : <AutoLogin />}
        {config.LoginPage && <OidcSignIn />}
      </div>
    </div>
  );
}
