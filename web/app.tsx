import { useAtomValue } from 'jotai';
import { useEffect } from 'react';
import { Toaster } from './features/notices/toaster';
import { PromptHost } from './features/prompts/prompt-host';
import { SearchOverlay } from './features/search/search-overlay';
import { ShellPanel } from './features/shell/shell-panel';
import { useLocaleSync } from './i18n/use-locale-sync';
import { Routes } from './routes';
import { themeAtom } from './state/theme';

function useThemeSync(): void {
  const theme = useAtomValue(themeAtom);
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
}

/** The whole UI: the routed page, the prompt and the notices on top; theme and language follow the state. */
export function App() {
  useThemeSync();
  useLocaleSync();
  return (
    <>
      <Routes />
      <PromptHost />
      <SearchOverlay />
      <ShellPanel />
      <Toaster />
    </>
  );
}
