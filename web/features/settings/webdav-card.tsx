import { useAtomValue, useSetAtom } from 'jotai';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { failureText } from '../../lib/notice';
import { davAddress } from '../../paths';
import { configAtom } from '../../state/config';
import { notifyAtom } from '../../state/notices';

/** The per-system steps, in the order people ask for them; the system names are not translated. */
const SYSTEMS = [
  { name: 'Windows', key: 'windows' },
  { name: 'macOS', key: 'macos' },
  { name: 'Linux', key: 'linux' },
  { name: null, key: 'phones' },
] as const;

/**
 * The profile's "WebDAV address" section (beyond.md §1, §9): the address of the user's scope over
 * WebDAV with a Copy button, and how to connect from each system. Not shown under --disableWebDAV.
 */
export function WebdavCard() {
  const { t } = useTranslation();
  const config = useAtomValue(configAtom);
  const notify = useSetAtom(notifyAtom);
  const titleId = useId();
  if (!config.WebDAV) return null;
  const address = davAddress(window.location.origin, config.BaseURL);
  const copy = (): void => {
    navigator.clipboard.writeText(address).then(
      () => notify({ kind: 'success', message: { key: 'dav.copied' } }),
      (error: unknown) => notify({ kind: 'error', message: failureText(error) }),
    );
  };
  return (
    <section className="card settings-card" aria-labelledby={titleId}>
      <h2 id={titleId} className="card-title">{t('dav.title')}</h2>
      <div className="card-body">
        <p className="card-subtitle">{t('dav.intro')}</p>
        <div className="dav-address">
          {/* An address reads left to right, also in a right-to-left language. */}
          <input className="input mono" dir="ltr" readOnly value={address} aria-label={t('dav.title')} onFocus={(e) => e.target.select()} />
          <button type="button" className="button" onClick={copy}>{t('dav.copy')}</button>
        </div>
        <dl className="dav-systems">
          {SYSTEMS.map(({ name, key }) => (
            <div key={key} className="dav-system">
              <dt>{name ?? t('dav.phonesTitle')}</dt>
              <dd>
                {t(`dav.${key}`)}
                {/* A command reads left to right, also in a right-to-left language. */}
                {key === 'linux' && <code className="mono dav-command" dir="ltr">{`mount -t davfs ${address} /mnt/files`}</code>}
              </dd>
            </div>
          ))}
        </dl>
      </div>
    </section>
  );
}
