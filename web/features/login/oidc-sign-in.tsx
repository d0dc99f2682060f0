import { useAtomValue, useSetAtom } from 'jotai';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'wouter';
import { safeRedirect } from '../../paths';
import { configAtom } from '../../state/config';
import { startOidcSignInAtom } from '../../state/oidc';

/** The reasons the server names in `?oidc_error=` (server/resources/oidc/failure.ts). */
const REASONS = ['state', 'denied', 'code', 'token', 'unavailable', 'account', 'unknownUser', 'handover', 'throttled'] as const;
type Reason = (typeof REASONS)[number];

function reasonOf(value: string | null): Reason | null {
  if (value === null) return null;
  return (REASONS as readonly string[]).includes(value) ? (value as Reason) : 'denied';
}

/** "Sign in with <provider>" on the login page (beyond.md §4.3), and why the last attempt failed. */
export function OidcSignIn() {
  const { t } = useTranslation();
  const config = useAtomValue(configAtom);
  const start = useSetAtom(startOidcSignInAtom);
  const [params] = useSearchParams();
  if (!config.OidcName) return null;
  const reason = reasonOf(params.get('oidc_error'));
  return (
    <div className="login-oidc">
      {config.PasswordLogin && <p className="login-or"><span>{t('oidc.or')}</span></p>}
      <button className={config.PasswordLogin ? 'button button-oidc' : 'button button-primary button-oidc'} type="button" onClick={() => start(safeRedirect(params.get('redirect')))}>
        {t('oidc.signIn', { name: config.OidcName })}
      </button>
      {reason && <p className="login-error" role="alert">{t(`oidc.errors.${reason}`, { name: config.OidcName })}</p>}
    </div>
  );
}
