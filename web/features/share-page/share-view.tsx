import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { apiUrl } from '../../api/http';
import type { FileInfo, PublicResource } from '../../api/types';
import { DateTime } from '../../components/date-time';
import { Icon } from '../../components/icon';
import { currentLang } from '../../i18n';
import { formatSize } from '../../lib/format';
import { apiPaths, joinPath, sharePath, withQuery } from '../../paths';
import { nowAtom } from '../../state/clock';

function Items({ items, hash, folder }: { items: FileInfo[]; hash: string; folder: string }) {
  const { t } = useTranslation();
  const now = useAtomValue(nowAtom);
  if (items.length === 0) return <p className="empty">{t('listing.empty')}</p>;
  return (
    <ul className="items">
      {items.map((item) => (
        <li key={item.name} className="item">
          <Link className="item-name" href={sharePath(hash, joinPath(folder, item.name, item.isDir))}>
            <Icon name={item.isDir ? 'folder' : 'file'} className={item.isDir ? 'item-icon folder' : 'item-icon'} />
            <span>{item.name}</span>
          </Link>
          <span className="item-size">{item.isDir ? '' : formatSize(item.size, currentLang())}</span>
          <DateTime className="item-modified" iso={item.modified} exact={false} nowMs={now} lang={currentLang()} />
        </li>
      ))}
    </ul>
  );
}

/** A shared file or folder: what it is, when it changed, a download link and the folder's items. */
export function ShareView({ resource, hash, path }: { resource: PublicResource; hash: string; path: string }) {
  const { t } = useTranslation();
  const lang = currentLang();
  const now = useAtomValue(nowAtom);
  const download = apiUrl(withQuery(apiPaths.publicDownload(hash, path), { algo: resource.isDir ? 'zip' : undefined, token: resource.token }));
  const items = resource.isDir ? (resource.items ?? []) : null;
  return (
    <div className="share">
      <section className="card share-info">
        <h1 className="card-title">{resource.isDir ? t('share.downloadFolder') : t('share.downloadFile')}</h1>
        <div className="card-body">
          <p className="share-name"><Icon name={resource.isDir ? 'folder' : 'file'} /> <span>{resource.name}</span></p>
          <p className="share-meta">
            <DateTime iso={resource.modified} exact={false} nowMs={now} lang={lang} />
            {!resource.isDir && <span> · {formatSize(resource.size, lang)}</span>}
          </p>
          <a className="button button-primary" href={download}><Icon name="download" /><span>{t('file.download')}</span></a>
        </div>
      </section>
      {items && <Items items={items} hash={hash} folder={path} />}
    </div>
  );
}
