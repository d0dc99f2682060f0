import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Share } from '../../api/types';
import { Dialog } from '../../components/dialog';
import { currentLang } from '../../i18n';
import { formatDateTime, formatRelative } from '../../lib/format';
import { failureText } from '../../lib/notice';
import { shareCounts } from '../../lib/share-counts';
import { sharePath, withBase } from '../../paths';
import { nowAtom } from '../../state/clock';
import { configAtom } from '../../state/config';
import type { Target } from '../../state/listing';
import { notifyAtom } from '../../state/notices';
import { showPromptAtom } from '../../state/prompts';
import { ShareForm } from './share-form';
import { loadLinksAtom } from './state';

function LinkRow({ link, item }: { link: Share; item: Target }) {
  const { t } = useTranslation();
  const config = useAtomValue(configAtom);
  const now = useAtomValue(nowAtom);
  const notify = useSetAtom(notifyAtom);
  const showPrompt = useSetAtom(showPromptAtom);
  const url = `${window.location.origin}${withBase(config.BaseURL, sharePath(link.hash))}`;
  const copy = (): void => {
    navigator.clipboard.writeText(url).then(
      () => notify({ kind: 'success', message: { key: 'shares.copied' } }),
      (error: unknown) => notify({ kind: 'error', message: failureText(error) }),
    );
  };
  return (
    <li className="share-link">
      <div className="share-link-text">
        <a href={url} target="_blank" rel="noopener noreferrer" className="mono" dir="ltr">{url}</a>
        <span className="field-help">
          {link.expire === 0 ? t('shares.permanent') : (
            <time dateTime={new Date(link.expire * 1000).toISOString()} title={formatDateTime(new Date(link.expire * 1000).toISOString(), currentLang())}>
              {t('shareDialog.expires', { when: formatRelative(link.expire, now, currentLang()) })}
            </time>
          )}
          {link.hasPassword && <> · {t('shareDialog.protected')}</>}
          <> · {t(link.kind === 'upload' ? 'fileRequest.uploadLink' : 'fileRequest.downloadLink')} · {t(shareCounts(link).key, shareCounts(link).values)}</>
        </span>
      </div>
      <button type="button" className="button button-small" onClick={copy}>{t('shareDialog.copy')}</button>
      <button type="button" className="button button-small button-danger" onClick={() => showPrompt({ kind: 'shareDelete', item, hash: link.hash })}>
        {t('shareDialog.delete')}
      </button>
    </li>
  );
}

/**
 * Share (product.md §4): the item's links, permanent first then by expiry, with New; or, when
 * there is none yet (or after New), the form that creates one.
 */
export function SharePrompt({ item, onClose }: { item: Target; onClose: () => void }) {
  const { t } = useTranslation();
  const load = useSetAtom(loadLinksAtom);
  const notify = useSetAtom(notifyAtom);
  const [links, setLinks] = useState<Share[] | null>(null);
  const [creating, setCreating] = useState(false);
  const refresh = (): void => {
    load(item.path).then((found) => {
      setLinks(found);
      setCreating(found.length === 0);
    }, (error: unknown) => {
      notify({ kind: 'error', message: failureText(error) });
      onClose();
    });
  };
  // eslint-disable-next-line react-hooks/exhaustive-deps -- loads once per opened prompt
  useEffect(refresh, [item.path]);

  if (links === null) return null;
  if (creating) {
    return <ShareForm item={item} onCreated={refresh} onCancel={() => (links.length === 0 ? onClose() : setCreating(false))} />;
  }
  return (
    <Dialog title={t('shareDialog.title')} onClose={onClose} className="dialog-wide"
      actions={
        <>
          <button type="button" className="button" onClick={onClose}>{t('prompts.close')}</button>
          <button type="button" className="button button-primary" onClick={() => setCreating(true)}>{t('shareDialog.new')}</button>
        </>
      }>
      <ul className="share-links">
        {links.map((link) => <LinkRow key={link.hash} link={link} item={item} />)}
      </ul>
    </Dialog>
  );
}
