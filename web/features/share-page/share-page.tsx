import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { usePathname } from 'wouter/use-browser-location';
import type { PublicResource } from '../../api/types';
import { Breadcrumbs } from '../../components/breadcrumbs';
import { ErrorMessage } from '../../components/error-message';
import { Icon } from '../../components/icon';
import { Spinner } from '../../components/spinner';
import { lazyComponent } from '../../lib/lazy-component';
import { folderOf, shareFromLocation, sharePath } from '../../paths';
import { configAtom } from '../../state/config';
import { useTitleDetail } from '../../state/title';
import { PasswordCard } from './password-card';
import { ShareInfo } from './share-info';
import { ShareItems } from './share-items';
import { ShareToolbar } from './share-toolbar';
import { clearShareSelectionAtom, loadShareAtom, shareStateAtom } from './state';
import { useEscClears } from './use-share-selection';

/** The upload area of an upload link, with tus behind it: a chunk of its own. */
const UploadArea = lazyComponent(() => import('./upload-area'), 'UploadArea');

/** A link that gave all its downloads answers 410 (beyond.md §2). */
function LimitReached() {
  const { t } = useTranslation();
  return (
    <div className="card share-gone" role="status">
      <div className="card-body">
        <Icon name="lock" />
        <p>{t('fileRequest.limitReached')}</p>
      </div>
    </div>
  );
}

/** product.md §9: breadcrumbs show at most 3 trailing segments. */
const CRUMBS = 3;

type Folder = PublicResource & { items: PublicResource[] };

function isFolder(resource: PublicResource): resource is Folder {
  return resource.isDir && Array.isArray(resource.items);
}

/** The shared item: the info box, and the items box of a folder. */
function Loaded({ resource, hash, path }: { resource: PublicResource; hash: string; path: string }) {
  const folder = isFolder(resource) ? resource : null;
  return (
    <div className={folder ? 'share share-folder' : 'share'}>
      <ShareInfo resource={resource} hash={hash} path={path} />
      {folder && <ShareItems items={folder.items} hash={hash} folder={folderOf(path.endsWith('/') ? path : `${path}/`)} />}
    </div>
  );
}

/** Loads the share at the route's path and titles the page with the shared item's name. */
function useShare(hash: string, path: string) {
  const state = useAtomValue(shareStateAtom);
  const load = useSetAtom(loadShareAtom);
  const clear = useSetAtom(clearShareSelectionAtom);
  useEffect(() => {
    clear();
    void load({ hash, path });
  }, [hash, path, load, clear]);
  const current = state.key === `${hash}:${path}` ? state : null;
  const name = current?.resource?.name ?? current?.upload?.name ?? '';
  useTitleDetail(name);
  return current;
}

/** The public page of a share link (/share/<hash>/...): password, error or the shared item. */
export function SharePage() {
  const { t } = useTranslation();
  const config = useAtomValue(configAtom);
  const { hash, path } = shareFromLocation(usePathname(), config.BaseURL);
  const state = useShare(hash, path);
  useEscClears();
  const resource = state?.status === 'ready' ? state.resource : null;
  let body;
  if (!state || state.status === 'loading') body = <Spinner label={t('app.loading')} />;
  else if (state.status === 'password') body = <PasswordCard hash={hash} path={path} wrong={state.wrongPassword} checking={state.checking ?? false} />;
  else if (state.status === 'upload' && state.upload) body = <UploadArea link={state.upload} hash={hash} />;
  else if (state.errorStatus === 410) body = <LimitReached />;
  else if (!resource) body = <ErrorMessage status={state.errorStatus} />;
  else body = <Loaded resource={resource} hash={hash} path={path} />;
  // A file share has no folders to walk (its path is ''); a folder share and what is inside it do.
  const inFolder = resource !== null && resource.path !== '';
  const dir = resource?.isDir && !path.endsWith('/') ? `${path}/` : path;
  return (
    <div className="files share-page">
      {inFolder && (
        <div className="files-bar">
          <Breadcrumbs path={folderOf(dir)} label={t('listing.breadcrumbs')} rootLabel={t('listing.root')} hrefFor={(folder) => sharePath(hash, folder)} limit={CRUMBS} />
          {isFolder(resource) && <ShareToolbar folder={resource} hash={hash} />}
        </div>
      )}
      {body}
    </div>
  );
}
