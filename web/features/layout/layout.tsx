import { useAtom } from 'jotai';
import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import type { LayoutVariant } from '../../pages';
import { Header } from './header';
import { Sidebar } from './sidebar';
import { sidebarOpenAtom } from './state';

interface LayoutProps {
  variant: LayoutVariant;
  /** Show the used-disk bar (file pages only). */
  showUsage?: boolean;
  children: ReactNode;
}

/** The page frame: nothing (login), a header (error pages) or header + sidebar + main. */
export function Layout({ variant, showUsage = false, children }: LayoutProps) {
  const { t } = useTranslation();
  const [location] = useLocation();
  const [open, setOpen] = useAtom(sidebarOpenAtom);
  // The drawer closes on navigation, as a phone user expects after tapping an item.
  useEffect(() => setOpen(false), [location, setOpen]);

  if (variant === 'bare') return <main id="main">{children}</main>;
  return (
    <div className={`layout layout-${variant}`}>
      <a className="skip-link" href="#main">{t('app.skipToContent')}</a>
      <Header withMenu={variant === 'shell'} />
      {variant === 'shell' && <Sidebar showUsage={showUsage} />}
      {variant === 'shell' && open && <div className="backdrop" aria-hidden="true" onClick={() => setOpen(false)} />}
      <main id="main" className="main" tabIndex={-1}>{children}</main>
    </div>
  );
}
