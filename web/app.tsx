import { useAtomValue } from 'jotai';
import { lazy, Suspense, useEffect } from 'react';
import { Toaster } from './features/notices/toaster';
import { useLocaleSync } from './i18n/use-locale-sync';
import { Routes } from './routes';
import { abilitiesAtom } from './state/abilities';
import { searchOpenAtom, shellOpenAtom } from './state/panels';
import { promptAtom } from './state/prompts';
import { themeAtom } from './state/theme';

// The prompts, the search overlay, the shell and the uploads are chunks of their own, loaded the first time
// one opens: the login page carries none of them (its first-load budget is 150 KB).
const PromptHost = lazy(async () => ({ default: (await import('./features/prompts/prompt-host')).PromptHost }));
const SearchOverlay = lazy(async () => ({ default: (await import('./features/search/search-overlay')).SearchOverlay }));
const ShellPanel = lazy(async () => ({ default: (await import('./features/shell/shell-panel')).ShellPanel }));
const UploadHost = lazy(async () => ({ default: (await import('./features/upload/upload-host')).UploadHost }));

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
  const canUpload = useAtomValue(abilitiesAtom).create;
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
