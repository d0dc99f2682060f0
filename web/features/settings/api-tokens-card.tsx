import type { TokenView } from '@contract/tokens';
import { useAtomValue, useSetAtom } from 'jotai';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DateTime } from '../../components/date-time';
import { Icon } from '../../components/icon';
import { Spinner } from '../../components/spinner';
import { currentLang } from '../../i18n';
import { lazyComponent } from '../../lib/lazy-component';
import { failureText } from '../../lib/notice';
import { nowAtom } from '../../state/clock';
import { notifyAtom } from '../../state/notices';
import { useLatestSettled } from '../../state/settled';
import { revokeTokenAtom, tokensAtom } from './tokens-state';

const NewTokenDialog = lazyComponent(() => import('./new-token-dialog'), 'NewTokenDialog');

function When({ iso }: { iso: string | null }) {
  const { t } = useTranslation();
  const now = useAtomValue(nowAtom);
  if (iso === null) return <>{t('tokens.never')}</>;
  return <DateTime iso={iso} exact={false} nowMs={now} lang={currentLang()} />;
}

function TokenRow({ token }: { token: TokenView }) {
  const { t } = useTranslation();
  const revoke = useSetAtom(revokeTokenAtom);
  const notify = useSetAtom(notifyAtom);
  const drop = (): void => void revoke(token.id).then(
    () => notify({ kind: 'success', message: { key: 'tokens.revoked' } }),
    (error: unknown) => notify({ kind: 'error', message: failureText(error) }),
  );
  return (
    <tr>
      <td data-label={t('tokens.name')} className="cell-primary">{token.name}</td>
      <td data-label={t('tokens.created')}><When iso={token.created} /></td>
      <td data-label={t('tokens.expires')}><When iso={token.expires} /></td>
      <td data-label={t('tokens.lastUsed')}><When iso={token.lastUsed} /></td>
      <td className="cell-action">
        <button type="button" className="button button-small button-danger" onClick={drop}>
          <Icon name="trash" /><span>{t('tokens.revoke')}</span>
        </button>
      </td>
    </tr>
  );
}

function TokenTable({ tokens }: { tokens: TokenView[] }) {
  const { t } = useTranslation();
  if (tokens.length === 0) return <p className="empty">{t('tokens.none')}</p>;
  return (
    <table className="table responsive-table">
      <thead>
        <tr>
          <th scope="col">{t('tokens.name')}</th>
          <th scope="col">{t('tokens.created')}</th>
          <th scope="col">{t('tokens.expires')}</th>
          <th scope="col">{t('tokens.lastUsed')}</th>
          <th scope="col"><span className="visually-hidden">{t('tokens.revoke')}</span></th>
        </tr>
      </thead>
      <tbody>{tokens.map((token) => <TokenRow key={token.id} token={token} />)}</tbody>
    </table>
  );
}

/** Profile section "API tokens" (beyond.md §4.1): the caller's tokens, "New token" and "Revoke". */
export function ApiTokensCard() {
  const { t } = useTranslation();
  const tokens = useLatestSettled(tokensAtom);
  const [creating, setCreating] = useState(false);
  return (
    <section className="card settings-card" aria-labelledby="api-tokens-title">
      <h2 id="api-tokens-title" className="card-title">{t('tokens.title')}</h2>
      <div className="card-body">
        <p className="field-help">{t('tokens.help')}</p>
        {tokens === undefined ? <Spinner label={t('app.loading')} /> : <TokenTable tokens={tokens} />}
      </div>
      <div className="card-actions">
        <button type="button" className="button button-primary" onClick={() => setCreating(true)} onPointerEnter={() => void NewTokenDialog.preload()}>
          {t('tokens.new')}
        </button>
      </div>
      {creating && <NewTokenDialog onClose={() => setCreating(false)} />}
    </section>
  );
}
