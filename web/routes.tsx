import { useAtomValue } from 'jotai';
import { Suspense, useEffect, type ComponentType, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Redirect, Route, Switch, useSearchParams } from 'wouter';
import { usePathname, useSearch } from 'wouter/use-browser-location';
import { ErrorBoundary } from './components/error-boundary';
import { Spinner } from './components/spinner';
import { Layout } from './features/layout/layout';
import { lazyComponent, type LazyComponent } from './lib/lazy-component';
import { instanceName, pageTitle } from './lib/page-config';
import { usePreloadWhenIdle } from './lib/preload';
import { PAGES, type PagePath, type PageRow } from './pages';
import { errorPath, loginPath, safeRedirect, stripBase } from './paths';
import { abilitiesAtom, mayOpen, type Abilities } from './state/abilities';
import { configAtom } from './state/config';
import { userAtom } from './state/session';
import { titleDetailAtom } from './state/title';

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
const FilesScreen = page(() => import('./screens/files-screen'), 'FilesScreen');
const SharePage = page(() => import('./features/share-page/share-page'), 'SharePage');
const ProfilePage = page(() => import('./features/settings/profile-page'), 'ProfilePage');
const SharesPage = page(() => import('./features/settings/shares-page'), 'SharesPage');
const GlobalPage = page(() => import('./features/settings/global-page'), 'GlobalPage');
const UsersPage = page(() => import('./features/settings/users-page'), 'UsersPage');
const UserPage = page(() => import('./features/settings/user-page'), 'UserPage');
const ActivityPage = page(() => import('./features/settings/activity-page'), 'ActivityPage');
const TrashPage = page(() => import('./features/trash/trash-page'), 'TrashPage');
const ErrorPage = page(() => import('./features/errors/error-page'), 'ErrorPage');

/** Fetches the files screen's code: the page starts it on the files route, before rendering. */
export function preloadFilesScreen(): Promise<void> {
  return FilesScreen.preload();
}

/** The pages a signed-in user may go to next, preloaded when the browser is idle. */
function preloadable(signedIn: boolean, abilities: Abilities) {
  if (!signedIn) return [];
  return [FilesScreen, ProfilePage, TrashPage, ...(abilities.shares ? [SharesPage] : []), ...(abilities.admin ? [GlobalPage, UsersPage, UserPage] : [])];
}

interface PageRoute extends PageRow {
  render: () => ReactElement;
}

/** What each row of the page table renders. */
const RENDER: Record<PagePath, () => ReactElement> = {
  '/login': () => <LoginPage />,
  '/files/*': () => <FilesScreen />,
  '/share/*': () => <SharePage />,
  '/trash': () => <TrashPage />,
  '/settings/profile': () => <ProfilePage />,
  '/settings/shares': () => <SharesPage />,
  '/settings/global': () => <GlobalPage />,
  '/settings/users': () => <UsersPage />,
  '/settings/users/:id': () => <UserPage />,
  '/settings/activity': () => <ActivityPage />,
  '/403': () => <ErrorPage status={403} />,
  '/404': () => <ErrorPage status={404} />,
  '/500': () => <ErrorPage status={500} />,
};

const ROUTES: readonly PageRoute[] = PAGES.map((row) => ({ ...row, render: RENDER[row.path] }));

/** The path under the base URL plus the query, still encoded: what ?redirect= must bring back. */
function useFullPath(): string {
  const config = useAtomValue(configAtom);
  const pathname = usePathname();
  const search = useSearch();
  return `${stripBase(pathname, config.BaseURL) ?? pathname}${search}`;
}

function Guarded({ route }: { route: PageRoute }) {
  const { t } = useTranslation();
  const config = useAtomValue(configAtom);
  const user = useAtomValue(userAtom);
  const abilities = useAtomValue(abilitiesAtom);
  const fullPath = useFullPath();
  const [params] = useSearchParams();
  usePreloadWhenIdle(preloadable(user !== null, abilities));

  const detail = useAtomValue(titleDetailAtom);
  useEffect(() => {
    document.title = pageTitle([detail, t(`titles.${route.title}`)], instanceName(config));
  }, [detail, route.title, t, config]);

  if (route.access === 'guest' && user) return <Redirect to={safeRedirect(params.get('redirect'))} replace />;
  if (route.access !== 'public' && route.access !== 'guest') {
    if (!user) return <Redirect to={loginPath(fullPath)} replace />;
    if (!mayOpen(abilities, route.access)) return <Redirect to={errorPath(403)} replace />;
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
      {ROUTES.map((route) => (
        <Route key={route.path} path={route.path}><Guarded route={route} /></Route>
      ))}
      <Route><Unknown /></Route>
    </Switch>
  );
}
