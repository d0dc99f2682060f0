import { useTranslation } from 'react-i18next';
import type { LoginError } from './login-error';

/** The translated text of a failed login or sign-up, announced as an alert. */
export function LoginMessage({ error }: { error: LoginError }) {
  const { t } = useTranslation();
  let text: string;
  if (error.key === 'passwordTooShort') text = t('login.passwordTooShort', { min: error.min });
  else if (error.key === 'connection') text = t('errors.connection');
  else if (error.key === 'otpRequired' || error.key === 'wrongCode') text = t(`totp.${error.key}`);
  else text = t(`login.${error.key}`);
  return <p className="login-error" role="alert">{text}</p>;
}
