import { useAtomValue } from 'jotai';
import { Suspense, useEffect, type ComponentType, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Redirect, Route, Switch, useSearchParams } from 'wouter';
import { usePathname, useSearch } from 'wouter/use-browser-location';
import type { TokenUser } from './api/types';
import { ErrorBoundary } from './components/error-boundary';
import { Spinner } from './components/spinner';
import { Layout, type LayoutVariant } from './features/layout/layout';
import type { Messages } from './i18n/locales';
import { lazyComponent, type LazyComponent } from './lib/lazy-component';
import { instanceName, pageTitle } from './lib/page-config';
import { usePreloadWhenIdle } from './lib/preload';
import { errorPath, loginPath, safeRedirect, stripBase } from './paths';
import { configAtom } from './state/config';
import { userAtom } from './state/session';

function Loading() {
  const { t } = useTranslation();
  return <Spinner label={t('app.loading')} />;
}

// Heavy screens are separate chunks, loaded when their route is first visited or, for a signed-in
// user, when the browser is idle (preloadable below).
function page<P extends object, K extends string>(load: () => Promise<Record<K, ComponentType<P>>>, name: K): LazyComponent<P> {
  return lazyComponent(load, name, Loading);
}

const LoginPage = page(() => import('./features/login/login-page'), 'LoginPage');
const FilesPage = page(() => import('./features/listing/files-page'), 'FilesPage');
const SharePage = page(() => import('./features/share-page/share-page'), 'SharePage');
const ProfilePage = page(() => import('./features/settings/profile-page'), 'ProfilePage');
const SharesPage = page(() => import('./features/settings/shares-page'), 'SharesPage');
const GlobalPage = page(() => import('./features/settings/global-page'), 'GlobalPage');
const UsersPage = page(() => import('./features/settings/users-page'), 'UsersPage');
const UserPage = page(() => import('./features/settings/user-page'), 'UserPage');
const ErrorPage = page(() => import('./features/errors/error-page'), 'ErrorPage');

/** The pages a signed-in user may go to next, preloaded when the browser is idle. */
function preloadable(user: TokenUser | null) {
  if (!user) return [];
  return [FilesPage, ProfilePage, ...(user.perm.share ? [SharesPage] : []), ...(user.perm.admin ? [GlobalPage, UsersPage, UserPage] : [])];
}

/** Who may open a page: anyone, only signed-out visitors, signed-in users, or by permission. */
type Access = 'public' | 'guest' | 'user' | 'share' | 'admin';

interface PageRoute {
  path: string;
  title: keyof Messages['titles'];
  access: Access;
  layout: LayoutVariant;
  render: () => ReactElement;
}

/** THE page table (product.md §2). Order matters: the first matching path wins. */
export const PAGES: readonly PageRoute[] = [
  { path: '/login', title: 'login', access: 'guest', layout: 'bare', render: () => <LoginPage /> },
  { path: '/files/*', title: 'files', access: 'user', layout: 'shell', render: () => <FilesPage /> },
  { path: '/share/*', title: 'share', access: 'public', layout: 'shell', render: () => <SharePage /> },
  { path: '/settings/profile', title: 'profile', access: 'user', layout: 'shell', render: () => <ProfilePage /> },
  { path: '/settings/shares', title: 'shares', access: 'share', layout: 'shell', render: () => <SharesPage /> },
  { path: '/settings/global', title: 'global', access: 'admin', layout: 'shell', render: () => <GlobalPage /> },
  { path: '/settings/users', title: 'users', access: 'admin', layout: 'shell', render: () => <UsersPage /> },
  { path: '/settings/users/:id', title: 'user', access: 'admin', layout: 'shell', render: () => <UserPage /> },
  { path: '/403', title: 'forbidden', access: 'public', layout: 'header', render: () => <ErrorPage status={403} /> },
  { path: '/404', title: 'notFound', access: 'public', layout: 'header', render: () => <ErrorPage status={404} /> },
  { path: '/500', title: 'internal', access: 'public', layout: 'header', render: () => <ErrorPage status={500} /> },
];

/** The path under the base URL plus the query, still encoded: what ?redirect= must bring back. */
function useFullPath(): string {
  const config = useAtomValue(configAtom);
  const pathname = usePathname();
  const search = useSearch();
  return `${stripBase(pathname, config.BaseURL) ?? pathname}${search}`;
}

function denied(access: Access, user: TokenUser): boolean {
  return (access === 'admin' && !user.perm.admin) || (access === 'share' && !user.perm.share);
}

function Guarded({ route }: { route: PageRoute }) {
  const { t } = useTranslation();
  const config = useAtomValue(configAtom);
  const user = useAtomValue(userAtom);
  const fullPath = useFullPath();
  const [params] = useSearchParams();
  usePreloadWhenIdle(preloadable(user));

  useEffect(() => {
    document.title = pageTitle([t(`titles.${route.title}`)], instanceName(config));
  }, [route.title, t, config]);

  if (route.access === 'guest' && user) return <Redirect to={safeRedirect(params.get('redirect'))} replace />;
  if (route.access !== 'public' && route.access !== 'guest') {
    if (!user) return <Redirect to={loginPath(fullPath)} replace />;
    if (denied(route.access, user)) return <Redirect to={errorPath(403)} replace />;
  }
  return (
    <Layout variant={route.layout} showUsage={route.path === '/files/*'}>
      <ErrorBoundary resetKey={fullPath}>
        <Suspense fallback={<Spinner label={t('app.loading')} />}>{route.render()}</Suspense>
      </ErrorBoundary>
    </Layout>
  );
}

/** Anything else goes to the files route with the same path (product.md §2). */
function Unknown() {
  const config = useAtomValue(configAtom);
  const pathname = usePathname();
  const inApp = stripBase(pathname, config.BaseURL) ?? pathname;
  return <Redirect to={`/files${inApp}`} replace />;
}

/** The router's switch: redirects of product.md §2, then the page table, then the fallback. */
export function Routes() {
  return (
    <Switch>
      {/* A RegExp: the pattern "/files" would also match "/files/" (optional trailing slash). */}
      <Route path={/^\/files$/i}><Redirect to="/files/" replace /></Route>
      <Route path="/settings"><Redirect to="/settings/profile" replace /></Route>
      {PAGES.map((route) => (
        <Route key={route.path} path={route.path}><Guarded route={route} /></Route>
      ))}
      <Route><Unknown /></Route>
    </Switch>
  );
}
