import { useAtomValue } from 'jotai';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearch } from 'wouter';
import type { Resource } from '../api/types';
import { Breadcrumbs } from '../components/breadcrumbs';
import { ErrorMessage } from '../components/error-message';
import { Spinner } from '../components/spinner';
import { lazyComponent } from '../lib/lazy-component';
import { usePreloadWhenIdle } from '../lib/preload';
import { opensRendered } from '../lib/markdown';
import { filesPath, folderName, folderOf } from '../paths';
import { arrivingAtom } from '../state/listing';
import { shellOpenAtom } from '../state/panels';
import type { RequestState } from '../state/request';
import { Listing } from '../features/listing/listing';
import { SelectionBanner } from '../features/listing/selection-banner';
import { Toolbar } from '../features/listing/toolbar';
import { useFileActions } from '../features/listing/use-file-actions';
import { useFilesRequest } from '../features/listing/use-files-request';
import { useShortcuts } from '../features/listing/use-shortcuts';

function Loading() {
  const { t } = useTranslation();
  return <Spinner label={t('app.loading')} />;
}

// The editor and CodeMirror are chunks of their own, loaded when a text file is first opened.
const EditorPage = lazyComponent(() => import('../features/editor/editor-page'), 'EditorPage', Loading);
// The preview (its viewers load their own chunks) is fetched when a file is first opened.
const PreviewPage = lazyComponent(() => import('../features/preview/preview-page'), 'PreviewPage', Loading);
// Both are preloaded when the browser is idle, so that a first open is at once.
const FILE_VIEWS = [PreviewPage, EditorPage];

/** A folder's listing, also while a large one is still arriving (its first items). */
function FolderView({ name, path, empty }: { name: string; path: string; empty: boolean }) {
  const { t } = useTranslation();
  return (
    <>
      <h1 className="visually-hidden">{name || t('listing.root')}</h1>
      {/* Keyed by folder: a new folder starts at its first 50 items. */}
      {empty ? <p className="empty">{t('listing.empty')}</p> : <Listing key={path} />}
    </>
  );
}

function FileView({ resource, path }: { resource: Resource; path: string }) {
  const { t } = useTranslation();
  // A Markdown file shows rendered first; its "Edit" opens the editor (editPath).
  const editing = new URLSearchParams(useSearch()).has('edit');
  const rendered = opensRendered(resource) && !editing;
  if ((resource.type === 'text' || resource.type === 'textImmutable') && !rendered) {
    // Keyed by path: another file gets a new editor, a reload of the same one keeps the text typed.
    return <Suspense fallback={<Spinner label={t('app.loading')} />}><EditorPage key={path} file={resource} path={path} /></Suspense>;
  }
  // Not keyed: moving to a neighbour keeps the preview (and its stage) on screen.
  return <Suspense fallback={<Spinner label={t('app.loading')} />}><PreviewPage file={resource} /></Suspense>;
}

/** What the files route shows for its request: the same FolderView while a folder arrives and once it is whole. */
function body(request: RequestState | null, path: string, loading: string) {
  const resource = request?.resource;
  if (request?.status === 'error') return <ErrorMessage status={request.errorStatus} />;
  if (resource?.isDir && Array.isArray(resource.items)) return <FolderView name={resource.name} path={path} empty={resource.items.length === 0} />;
  if (resource) return <FileView resource={resource} path={path} />;
  if (request?.firstItems) return <FolderView name={folderName(path)} path={path} empty={false} />;
  return <Spinner label={loading} />;
}

/** The files route: the folder or file at the route's path, with the header actions and keys. */
export function FilesScreen() {
  const { t } = useTranslation();
  const { path, request } = useFilesRequest();
  const actions = useFileActions();
  useShortcuts(actions);
  const isFolder = request?.resource?.isDir ?? false;
  const arriving = useAtomValue(arrivingAtom);
  const shellOpen = useAtomValue(shellOpenAtom);
  usePreloadWhenIdle(FILE_VIEWS);
  return (
    <div className={shellOpen ? 'files with-shell' : 'files'}>
      <div className="files-bar">
        <Breadcrumbs path={folderOf(path)} label={t('listing.breadcrumbs')} rootLabel={t('listing.root')} hrefFor={filesPath} />
        {/* A large folder's first rows show while the rest is still coming: a wheel says so, and
            the actions hold their place (a phone's toolbar has a line of its own) but wait. */}
        {arriving && <Spinner label={t('app.loading')} />}
        {(isFolder || arriving) && (
          <div className="files-tools" inert={arriving}>
            {/* In the bar, not above the list: selecting must not move the items under the pointer. */}
            <SelectionBanner />
            <Toolbar actions={actions} />
          </div>
        )}
      </div>
      {body(request, path, t('app.loading'))}
    </div>
  );
}
