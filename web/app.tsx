import { useAtomValue } from 'jotai';
import { Suspense, useEffect } from 'react';
import { Toaster } from './features/notices/toaster';
import { useLocaleSync } from './i18n/use-locale-sync';
import { lazyComponent } from './lib/lazy-component';
import { usePreloadWhenIdle } from './lib/preload';
import { Routes } from './routes';
import { abilitiesAtom } from './state/abilities';
import { searchOpenAtom, shellOpenAtom } from './state/panels';
import { promptAtom } from './state/prompts';
import { userAtom } from './state/session';
import { themeAtom } from './state/theme';

// The prompts, the search overlay, the shell and the uploads are chunks of their own, loaded the first time
// one opens: the login page carries none of them (its first-load budget is 150 KB).
// Once someone is signed in they are preloaded when the browser is idle, so a first open is at once.
const PromptHost = lazyComponent(() => import('./features/prompts/prompt-host'), 'PromptHost');
const SearchOverlay = lazyComponent(() => import('./features/search/search-overlay'), 'SearchOverlay');
const ShellPanel = lazyComponent(() => import('./features/shell/shell-panel'), 'ShellPanel');
const UploadHost = lazyComponent(() => import('./features/upload/upload-host'), 'UploadHost');

function useThemeSync(): void {
  const theme = useAtomValue(themeAtom);
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
}

/** What floats above the page: the prompt, the search overlay and the shell, each when open. */
function Overlays() {
  const prompt = useAtomValue(promptAtom);
  const search = useAtomValue(searchOpenAtom);
  const shell = useAtomValue(shellOpenAtom);
  // Uploads (drops, the queue) need the create permission (product.md §6).
  const user = useAtomValue(userAtom);
  const abilities = useAtomValue(abilitiesAtom);
  const canUpload = abilities.create;
  usePreloadWhenIdle(user ? [PromptHost, SearchOverlay, ...(abilities.shell ? [ShellPanel] : [])] : []);
  return (
    <Suspense fallback={null}>
      {prompt && <PromptHost />}
      {search && <SearchOverlay />}
      {shell && <ShellPanel />}
      {canUpload && <UploadHost />}
    </Suspense>
  );
}

/** The whole UI: the routed page, the overlays and the notices on top; theme and language follow the state. */
export function App() {
  useThemeSync();
  useLocaleSync();
  return (
    <>
      <Routes />
      <Overlays />
      <Toaster />
    </>
  );
}
