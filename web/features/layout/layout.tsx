import { useAtom, useAtomValue } from 'jotai';
import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import type { LayoutVariant } from '../../pages';
import { userAtom } from '../../state/session';
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

  // A visitor of a public share has no files, settings or folders to make: the sidebar would be a
  // large empty column, so the page has the header alone, which offers the login (header.tsx).
  const signedIn = useAtomValue(userAtom) !== null;
  const frame = variant === 'shell' && !signedIn ? 'header' : variant;

  if (frame === 'bare') return <main id="main">{children}</main>;
  return (
    <div className={`layout layout-${frame}`}>
      <a className="skip-link" href="#main">{t('app.skipToContent')}</a>
      <Header withMenu={frame === 'shell'} />
      {frame === 'shell' && <Sidebar showUsage={showUsage} />}
      {frame === 'shell' && open && <div className="backdrop" aria-hidden="true" onClick={() => setOpen(false)} />}
      <main id="main" className="main" tabIndex={-1}>{children}</main>
    </div>
  );
}
