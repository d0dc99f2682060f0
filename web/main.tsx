import { getDefaultStore, Provider } from 'jotai';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Router } from 'wouter';
import { App } from './app';
import { initI18n } from './i18n';
import { resolveLocale } from './i18n/locales';
import { preloadFilesScreen } from './routes';
import { readPageConfig } from './lib/page-config';
import { configAtom } from './state/config';
import { filesPathOf, requestEarly } from './state/early-listing';
import { startSession, userAtom } from './state/session';
import { brandingThemeAtom } from './state/theme';
import './styles/tokens.css';
import './styles/base.css';
import './styles/layout.css';
import './styles/login.css';
import './styles/files.css';
import './styles/files-bar.css';
import './styles/listing.css';
import './styles/file-kinds.css';
import './styles/prompts.css';
import './styles/panels.css';
import './styles/settings.css';
import './styles/notices.css';
import './styles/forms.css';
import './styles/activity.css';
import './styles/upload.css';
import './styles/editor.css';
import './styles/share-page.css';
import './styles/upload-link.css';
import './styles/preview.css';
import './styles/menu.css';
import './styles/markdown.css';
import './styles/two-factor.css';
import './styles/trash.css';
import './styles/dav.css';

declare global {
  interface Window {
    /** The page configuration the server writes into index.html (api.md §3.19). */
    FileBrowser?: unknown;
  }
}

async function main(): Promise<void> {
  const config = readPageConfig(window.FileBrowser);
  const store = getDefaultStore();
  store.set(configAtom, config);
  store.set(brandingThemeAtom, config.Theme);
  // The session takes the stored token at once, then waits for its renew (the UI starts in the
  // user's current language). Meanwhile, signed in on the files route, the listing and the files
  // screen's code download with the stored token.
  const started = startSession(store, config);
  const filesPath = store.get(userAtom) ? filesPathOf(window.location.pathname, config.BaseURL) : null;
  if (filesPath !== null) {
    requestEarly(filesPath);
    void preloadFilesScreen();
  }
  await started;
  await initI18n(resolveLocale(store.get(userAtom)?.locale, navigator.languages));
  const root = document.getElementById('app');
  if (!root) throw new Error('index.html has no #app element');
  createRoot(root).render(
    <StrictMode>
      <Provider store={store}>
        <Router base={config.BaseURL}>
          <App />
        </Router>
      </Provider>
    </StrictMode>,
  );
}

void main();
