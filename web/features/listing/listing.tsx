import { useAtomValue } from 'jotai';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { FileInfo, Listing as ListingData } from '../../api/types';
import { DateTime } from '../../components/date-time';
import { Icon } from '../../components/icon';
import { currentLang } from '../../i18n';
import { formatSize } from '../../lib/format';
import { filesPath, joinPath } from '../../paths';
import { nowAtom } from '../../state/clock';
import { userAtom } from '../../state/session';

function Row({ item, folder }: { item: FileInfo; folder: string }) {
  const lang = currentLang();
  const exact = useAtomValue(userAtom)?.dateFormat ?? false;
  const now = useAtomValue(nowAtom);
  return (
    <li className="item">
      <Link className="item-name" href={filesPath(joinPath(folder, item.name, item.isDir))}>
        <Icon name={item.isDir ? 'folder' : 'file'} className={item.isDir ? 'item-icon folder' : 'item-icon'} />
        <span>{item.name}</span>
      </Link>
      <span className="item-size">{item.isDir ? '' : formatSize(item.size, lang)}</span>
      <DateTime className="item-modified" iso={item.modified} exact={exact} nowMs={now} lang={lang} />
    </li>
  );
}

function Section({ title, items, folder }: { title: string; items: FileInfo[]; folder: string }) {
  const id = useId();
  if (items.length === 0) return null;
  return (
    <section className="listing-section" aria-labelledby={id}>
      <h2 id={id} className="section-title">{title}</h2>
      <ul className="items">
        {items.map((item) => <Row key={item.name} item={item} folder={folder} />)}
      </ul>
    </section>
  );
}

/** A folder's items as plain lists, folders first, each name a link into it. */
export function Listing({ listing, folder }: { listing: ListingData; folder: string }) {
  const { t } = useTranslation();
  const folders = listing.items.filter((item) => item.isDir);
  const files = listing.items.filter((item) => !item.isDir);
  if (listing.items.length === 0) return <p className="empty">{t('listing.empty')}</p>;
  return (
    <div className="listing">
      <div className="listing-columns" aria-hidden="true">
        <span>{t('listing.name')}</span>
        <span>{t('listing.size')}</span>
        <span>{t('listing.modified')}</span>
      </div>
      <Section title={t('listing.folders')} items={folders} folder={folder} />
      <Section title={t('listing.files')} items={files} folder={folder} />
    </div>
  );
}
