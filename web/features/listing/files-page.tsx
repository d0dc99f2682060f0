import { useAtomValue } from 'jotai';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import type { Resource } from '../../api/types';
import { Breadcrumbs } from '../../components/breadcrumbs';
import { ErrorMessage } from '../../components/error-message';
import { Spinner } from '../../components/spinner';
import { filesPath, folderOf } from '../../paths';
import { shellOpenAtom } from '../../state/panels';
import { Listing } from './listing';
import { SelectionBanner } from './selection-banner';
import { Toolbar } from './toolbar';
import { useFileActions } from './use-file-actions';
import { useFilesRequest } from './use-files-request';
import { useShortcuts } from './use-shortcuts';

// The editor and CodeMirror are chunks of their own, loaded when a text file is first opened.
const EditorPage = lazy(async () => ({ default: (await import('../editor/editor-page')).EditorPage }));
// The preview (its viewers load their own chunks) is fetched when a file is first opened.
const PreviewPage = lazy(async () => ({ default: (await import('../preview/preview-page')).PreviewPage }));

function FolderView({ resource, path }: { resource: Resource; path: string }) {
  const { t } = useTranslation();
  const empty = (resource.items ?? []).length === 0;
  return (
    <>
      <h1 className="visually-hidden">{resource.name || t('listing.root')}</h1>
      {/* Keyed by folder: a new folder starts at its first 50 items. */}
      {empty ? <p className="empty">{t('listing.empty')}</p> : <Listing key={path} />}
    </>
  );
}

function Content({ resource, path }: { resource: Resource; path: string }) {
  const { t } = useTranslation();
  if (resource.isDir && Array.isArray(resource.items)) return <FolderView resource={resource} path={path} />;
  if (resource.type === 'text' || resource.type === 'textImmutable') {
    // Keyed by path: another file gets a new editor, a reload of the same one keeps the text typed.
    return <Suspense fallback={<Spinner label={t('app.loading')} />}><EditorPage key={path} file={resource} path={path} /></Suspense>;
  }
  // Not keyed: moving to a neighbour keeps the preview (and its stage) on screen.
  return <Suspense fallback={<Spinner label={t('app.loading')} />}><PreviewPage file={resource} /></Suspense>;
}

/** The files route: the folder or file at the route's path, with the header actions and keys. */
export function FilesPage() {
  const { t } = useTranslation();
  const { path, request } = useFilesRequest();
  const actions = useFileActions();
  useShortcuts(actions);
  let body;
  if (request?.status === 'error') body = <ErrorMessage status={request.errorStatus} />;
  else if (request?.resource) body = <Content resource={request.resource} path={path} />;
  else body = <Spinner label={t('app.loading')} />;
  const isFolder = request?.resource?.isDir ?? false;
  const shellOpen = useAtomValue(shellOpenAtom);
  return (
    <div className={shellOpen ? 'files with-shell' : 'files'}>
      <div className="files-bar">
        <Breadcrumbs path={folderOf(path)} label={t('listing.breadcrumbs')} rootLabel={t('listing.root')} hrefFor={filesPath} />
        {isFolder && (
          <div className="files-tools">
            {/* In the bar, not above the list: selecting must not move the items under the pointer. */}
            <SelectionBanner />
            <Toolbar actions={actions} />
          </div>
        )}
      </div>
      {body}
    </div>
  );
}
