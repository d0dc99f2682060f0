import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { usePathname } from 'wouter/use-browser-location';
import { Breadcrumbs } from '../../components/breadcrumbs';
import { ErrorMessage } from '../../components/error-message';
import { Spinner } from '../../components/spinner';
import { folderOf, shareFromLocation, sharePath } from '../../paths';
import { configAtom } from '../../state/config';
import { PasswordCard } from './password-card';
import { ShareView } from './share-view';
import { loadShareAtom, shareStateAtom } from './state';

/** The public page of a share link (/share/<hash>/...): password, error or the shared item. */
export function SharePage() {
  const { t } = useTranslation();
  const config = useAtomValue(configAtom);
  const { hash, path } = shareFromLocation(usePathname(), config.BaseURL);
  const state = useAtomValue(shareStateAtom);
  const load = useSetAtom(loadShareAtom);
  useEffect(() => {
    void load({ hash, path });
  }, [hash, path, load]);

  let body;
  if (state.key !== `${hash}:${path}` || state.status === 'loading') body = <Spinner label={t('app.loading')} />;
  else if (state.status === 'password') body = <PasswordCard hash={hash} path={path} wrong={state.wrongPassword} />;
  else if (state.status === 'error' || !state.resource) body = <ErrorMessage status={state.errorStatus} />;
  else body = <ShareView resource={state.resource} hash={hash} path={path} />;
  return (
    <div className="files">
      {state.resource?.isDir && (
        <Breadcrumbs path={folderOf(path)} label={t('listing.breadcrumbs')} rootLabel={t('listing.root')} hrefFor={(folder) => sharePath(hash, folder)} />
      )}
      {body}
    </div>
  );
}
