import { Link } from 'wouter';
import { crumbs } from '../paths';
import { Icon } from './icon';

interface BreadcrumbsProps {
  /** The folder on screen, ending with `/`. */
  path: string;
  /** The accessible name of the navigation and the root crumb's text. */
  label: string;
  rootLabel: string;
  hrefFor: (folder: string) => string;
}

/** Links to every folder above `path`, the last one marked as the current page. */
export function Breadcrumbs({ path, label, rootLabel, hrefFor }: BreadcrumbsProps) {
  const items = [{ name: rootLabel, path: '/' }, ...crumbs(path)];
  return (
    <nav className="breadcrumbs" aria-label={label}>
      <ol>
        {items.map((crumb, i) => (
          <li key={crumb.path}>
            {i > 0 && <Icon name="chevron" className="crumb-separator" />}
            <Link href={hrefFor(crumb.path)} aria-current={i === items.length - 1 ? 'page' : undefined}>
              {crumb.name}
            </Link>
          </li>
        ))}
      </ol>
    </nav>
  );
}
