import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { Icon } from '../../components/icon';
import { crumbs, filesPath } from '../../paths';

/** Links to every folder above the current path, the last one marked as the current page. */
export function Breadcrumbs({ path }: { path: string }) {
  const { t } = useTranslation();
  const items = [{ name: t('listing.root'), path: '/' }, ...crumbs(path)];
  return (
    <nav className="breadcrumbs" aria-label={t('listing.breadcrumbs')}>
      <ol>
        {items.map((crumb, i) => (
          <li key={crumb.path}>
            {i > 0 && <Icon name="chevron" className="crumb-separator" />}
            <Link href={filesPath(crumb.path)} aria-current={i === items.length - 1 ? 'page' : undefined}>
              {crumb.name}
            </Link>
          </li>
        ))}
      </ol>
    </nav>
  );
}
