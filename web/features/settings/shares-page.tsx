import { useAtomValue, useSetAtom } from 'jotai';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { currentLang } from '../../i18n';
import { failureNotice, NoticeLine, type Notice } from '../../components/notice';
import { formatRelative } from '../../lib/format';
import { filesPath, sharePath, withBase } from '../../paths';
import { nowAtom } from '../../state/clock';
import { configAtom } from '../../state/config';
import { userAtom } from '../../state/session';
import { SettingsShell } from './settings-shell';
import { deleteShareAtom, sharesAtom, type ShareRow } from './shares-state';

function Row({ share, admin, onStatus }: { share: ShareRow; admin: boolean; onStatus: (notice: Notice) => void }) {
  const { t } = useTranslation();
  const config = useAtomValue(configAtom);
  const remove = useSetAtom(deleteShareAtom);
  const now = useAtomValue(nowAtom);
  const link = `${window.location.origin}${withBase(config.BaseURL, sharePath(share.hash))}`;
  const fail = (error: unknown): void => onStatus(failureNotice(error));
  return (
    <tr>
      <td><Link href={filesPath(share.path)} className="mono">{share.path}</Link></td>
      <td>{share.expire === 0 ? t('shares.permanent') : formatRelative(share.expire, now, currentLang())}</td>
      {admin && <td>{share.username}</td>}
      <td className="cell-action">
        <button type="button" className="button button-small" onClick={() => void navigator.clipboard.writeText(link).then(() => onStatus({ key: 'shares.copied' }), fail)}>
          {t('shares.copyLink')}
        </button>
        <button type="button" className="button button-small button-danger" onClick={() => void remove(share.hash).then(() => onStatus({ key: 'shares.deleted' }), fail)}>
          {t('shares.delete')}
        </button>
      </td>
    </tr>
  );
}

function ShareTable({ onStatus }: { onStatus: (notice: Notice) => void }) {
  const { t } = useTranslation();
  const shares = useAtomValue(sharesAtom);
  const admin = useAtomValue(userAtom)?.perm.admin ?? false;
  if (shares.length === 0) return <p className="empty">{t('listing.empty')}</p>;
  return (
    <table className="table">
      <thead>
        <tr>
          <th scope="col">{t('shares.path')}</th>
          <th scope="col">{t('shares.duration')}</th>
          {admin && <th scope="col">{t('login.username')}</th>}
          <th scope="col"><span className="visually-hidden">{t('shares.delete')}</span></th>
        </tr>
      </thead>
      <tbody>
        {shares.map((share) => <Row key={share.hash} share={share} admin={admin} onStatus={onStatus} />)}
      </tbody>
    </table>
  );
}

/** Share Management: the links, with expiry, owner (admins), copy and delete (product.md §2). */
export function SharesPage() {
  const { t } = useTranslation();
  const [notice, setNotice] = useState<Notice>(null);
  return (
    <SettingsShell>
      <section className="card settings-card wide">
        <h1 className="card-title">{t('titles.shares')}</h1>
        <ShareTable onStatus={setNotice} />
        <div className="card-status"><NoticeLine notice={notice} /></div>
      </section>
    </SettingsShell>
  );
}
