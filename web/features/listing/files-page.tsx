import { useTranslation } from 'react-i18next';
import type { Listing as ListingData, Resource } from '../../api/types';
import { ErrorMessage } from '../../components/error-message';
import { Spinner } from '../../components/spinner';
import { Breadcrumbs } from '../../components/breadcrumbs';
import { filesPath, folderOf } from '../../paths';
import { FileDetails } from './file-details';
import { Listing } from './listing';
import { useFilesRequest } from './use-files-request';

function isListing(resource: Resource): resource is ListingData {
  return resource.isDir && Array.isArray(resource.items);
}

function Content({ resource, path }: { resource: Resource; path: string }) {
  const { t } = useTranslation();
  if (isListing(resource)) {
    return (
      <>
        <h1 className="visually-hidden">{resource.name || t('listing.root')}</h1>
        <Listing listing={resource} folder={folderOf(path)} />
      </>
    );
  }
  return (
    <>
      <h1 className="page-title">{resource.name}</h1>
      <FileDetails file={{ ...resource, path }} />
    </>
  );
}

/** The files route: the folder or file at the route's path, fetched from GET /api/resources. */
export function FilesPage() {
  const { t } = useTranslation();
  const { path, request } = useFilesRequest();
  let body;
  if (request?.status === 'error') body = <ErrorMessage status={request.errorStatus} />;
  else if (request?.resource) body = <Content resource={request.resource} path={path} />;
  else body = <Spinner label={t('app.loading')} />;
  return (
    <div className="files">
      <Breadcrumbs path={folderOf(path)} label={t('listing.breadcrumbs')} rootLabel={t('listing.root')} hrefFor={filesPath} />
      {body}
    </div>
  );
}
