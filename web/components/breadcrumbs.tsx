import { Link } from 'wouter';
import { crumbs, type Crumb } from '../paths';
import { Icon } from './icon';

interface BreadcrumbsProps {
  /** The folder on screen, ending with `/`. */
  path: string;
  /** The accessible name of the navigation and the root crumb's text. */
  label: string;
  rootLabel: string;
  hrefFor: (folder: string) => string;
  /** Show at most this many trailing folders; the ones before collapse to '...'. */
  limit?: number;
}

/** The crumbs to show: the root, then every folder, or '...' (null) and the last `limit` ones. */
function visibleCrumbs(all: Crumb[], limit: number | undefined): (Crumb | null)[] {
  const [root, ...folders] = all;
  if (!root || limit === undefined || folders.length <= limit) return all;
  return [root, null, ...folders.slice(-limit)];
}

/** Links to every folder above `path`, the last one marked as the current page. */
export function Breadcrumbs({ path, label, rootLabel, hrefFor, limit }: BreadcrumbsProps) {
  const items = visibleCrumbs([{ name: rootLabel, path: '/' }, ...crumbs(path)], limit);
  return (
    <nav className="breadcrumbs" aria-label={label}>
      <ol>
        {items.map((crumb, i) => (
          <li key={crumb?.path ?? '...'}>
            {i > 0 && <Icon name="chevron" className="crumb-separator" />}
            {crumb ? (
              <Link href={hrefFor(crumb.path)} aria-current={i === items.length - 1 ? 'page' : undefined}>
                {crumb.name}
              </Link>
            ) : (
              <span className="crumb-more">...</span>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
