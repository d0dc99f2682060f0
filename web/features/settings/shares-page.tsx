import { useAtomValue, useSetAtom } from 'jotai';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { DateTime } from '../../components/date-time';
import { Icon } from '../../components/icon';
import { Spinner } from '../../components/spinner';
import { currentLang } from '../../i18n';
import { failureText } from '../../lib/notice';
import { filesPath, sharePath, withBase } from '../../paths';
import { abilitiesAtom } from '../../state/abilities';
import { nowAtom } from '../../state/clock';
import { configAtom } from '../../state/config';
import { notifyAtom } from '../../state/notices';
import { useSettled } from '../../state/settled';
import { SettingsShell } from './settings-shell';
import { deleteShareAtom, sharesAtom, type ShareRow } from './shares-state';

function Expiry({ expire }: { expire: number }) {
  const { t } = useTranslation();
  const now = useAtomValue(nowAtom);
  if (expire === 0) return <>{t('shares.permanent')}</>;
  return <DateTime iso={new Date(expire * 1000).toISOString()} exact={false} nowMs={now} lang={currentLang()} />;
}

/** "downloads / limit" of a limited link, the count of an unlimited one (beyond.md §2). */
function downloadsText(share: ShareRow): string {
  return share.maxDownloads > 0 ? `${share.downloads} / ${share.maxDownloads}` : String(share.downloads);
}

function Row({ share, admin }: { share: ShareRow; admin: boolean }) {
  const { t } = useTranslation();
  const config = useAtomValue(configAtom);
  const remove = useSetAtom(deleteShareAtom);
  const notify = useSetAtom(notifyAtom);
  const link = `${window.location.origin}${withBase(config.BaseURL, sharePath(share.hash))}`;
  const fail = (error: unknown): void => notify({ kind: 'error', message: failureText(error) });
  const copy = (): void => void navigator.clipboard.writeText(link).then(() => notify({ kind: 'success', message: { key: 'shares.copied' } }), fail);
  const drop = (): void => void remove(share.hash).then(() => notify({ kind: 'success', message: { key: 'shares.deleted' } }), fail);
  return (
    <tr>
      <td data-label={t('shares.path')} className="cell-primary"><Link href={filesPath(share.path)} className="mono" dir="ltr">{share.path}</Link></td>
      <td data-label={t('fileRequest.kind')}>{t(share.kind === 'upload' ? 'fileRequest.uploadLink' : 'fileRequest.downloadLink')}</td>
      <td data-label={t('fileRequest.downloads')}><span dir="ltr">{share.kind === 'upload' ? '—' : downloadsText(share)}</span></td>
      <td data-label={t('fileRequest.uploads')}>{share.kind === 'upload' ? share.uploads : '—'}</td>
      <td data-label={t('shares.duration')}><Expiry expire={share.expire} /></td>
      {admin && <td data-label={t('login.username')}>{share.username}</td>}
      <td className="cell-action">
        <button type="button" className="button button-small" onClick={copy}>
          <Icon name="copy" /><span>{t('shares.copyLink')}</span>
        </button>
        <button type="button" className="button button-small button-danger" onClick={drop}>
          <Icon name="trash" /><span>{t('shares.delete')}</span>
        </button>
      </td>
    </tr>
  );
}

function ShareTable() {
  const { t } = useTranslation();
  const shares = useSettled(sharesAtom);
  const admin = useAtomValue(abilitiesAtom).admin;
  if (!shares) return <Spinner label={t('app.loading')} />;
  if (shares.length === 0) return <p className="empty">{t('listing.empty')}</p>;
  return (
    <table className="table responsive-table shares-table">
      <thead>
        <tr>
          <th scope="col">{t('shares.path')}</th>
          <th scope="col">{t('fileRequest.kind')}</th>
          <th scope="col">{t('fileRequest.downloads')}</th>
          <th scope="col">{t('fileRequest.uploads')}</th>
          <th scope="col">{t('shares.duration')}</th>
          {admin && <th scope="col">{t('login.username')}</th>}
          <th scope="col"><span className="visually-hidden">{t('shares.delete')}</span></th>
        </tr>
      </thead>
      <tbody>
        {shares.map((share) => <Row key={share.hash} share={share} admin={admin} />)}
      </tbody>
    </table>
  );
}

/** Share Management: the links, with expiry, owner (admins), copy and delete (product.md §2). */
export function SharesPage() {
  const { t } = useTranslation();
  return (
    <SettingsShell>
      <section className="card settings-card wide">
        <h2 className="card-title">{t('titles.shares')}</h2>
        <ShareTable />
      </section>
    </SettingsShell>
  );
}
