import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { apiUrl } from '../../api/http';
import type { PublicResource } from '../../api/types';
import { DateTime } from '../../components/date-time';
import { Icon } from '../../components/icon';
import { currentLang } from '../../i18n';
import { formatSize } from '../../lib/format';
import { apiPaths, withQuery } from '../../paths';
import { nowAtom } from '../../state/clock';
import { QrCode } from './qr-code';

interface ShareInfoProps {
  resource: PublicResource;
  hash: string;
  path: string;
}

/** The links of the item on screen: download (a folder as zip), open inline, both with the link's token. */
export function shareLinks({ resource, hash, path }: ShareInfoProps) {
  const token = resource.token;
  return {
    download: apiUrl(withQuery(apiPaths.publicDownload(hash, path), { algo: resource.isDir ? 'zip' : undefined, token })),
    inline: apiUrl(withQuery(apiPaths.publicDownload(hash, path), { inline: 'true', token })),
  };
}

function Meta({ resource }: { resource: PublicResource }) {
  const { t } = useTranslation();
  const now = useAtomValue(nowAtom);
  const lang = currentLang();
  const number = new Intl.NumberFormat(lang);
  return (
    <p className="share-meta">
      <DateTime iso={resource.modified} exact={false} nowMs={now} lang={lang} />
      {resource.isDir ? (
        <>
          <span>{t('sharePage.folders', { count: number.format(resource.numDirs ?? 0) })}</span>
          <span>{t('sharePage.files', { count: number.format(resource.numFiles ?? 0) })}</span>
        </>
      ) : (
        <span>{formatSize(resource.size, lang)}</span>
      )}
    </p>
  );
}

/**
 * The info box (product.md §2, Share page): what is shared, when it changed, its size or item
 * count, Download, Open file (files), a QR code of the download link and, for an image, the image.
 */
export function ShareInfo(props: ShareInfoProps) {
  const { t } = useTranslation();
  const { resource } = props;
  const links = shareLinks(props);
  return (
    <section className="card share-info" aria-labelledby="share-info-title">
      <h1 id="share-info-title" className="card-title">{resource.isDir ? t('share.downloadFolder') : t('share.downloadFile')}</h1>
      <div className="card-body">
        {resource.type === 'image' && (
          <img className="share-preview" src={links.inline} alt={t('sharePage.preview', { name: resource.name })} decoding="async" />
        )}
        <p className="share-name">
          <Icon name={resource.isDir ? 'folder' : 'file'} className={resource.isDir ? 'share-icon folder' : 'share-icon'} />
          <bdi>{resource.name}</bdi>
        </p>
        <Meta resource={resource} />
        <div className="share-actions">
          <a className="button button-primary" href={links.download} download><Icon name="download" /><span>{t('file.download')}</span></a>
          {!resource.isDir && (
            <a className="button" href={links.inline} target="_blank" rel="noopener noreferrer">{t('sharePage.openFile')}</a>
          )}
        </div>
        <QrCode value={new URL(links.download, window.location.href).href} label={t('sharePage.qrCode')} />
      </div>
    </section>
  );
}
