import { atom } from 'jotai';
import { resolveTheme, type ThemeName } from '../lib/theme';

const STORAGE_KEY = 'filemgr.theme';

/** The instance's branding theme ('' = light, 'dark'), set from the page configuration at start. */
export const brandingThemeAtom = atom('');

function readOwn(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

const ownThemeStateAtom = atom<string | null>(readOwn());

/**
 * The person's own theme in this browser ('' = light, 'dark'), null until chosen. The user record
 * of the API has no theme field, so the choice is kept in localStorage, not on the server.
 */
export const ownThemeAtom = atom(
  (get) => get(ownThemeStateAtom),
  (_get, set, theme: string) => {
    try {
      localStorage.setItem(STORAGE_KEY, theme);
    } catch {
      // Storage may be off (private mode): the choice then lasts until the page is left.
    }
    set(ownThemeStateAtom, theme);
  },
);

/** The theme in force: the own choice, else the branding theme; '' is light, never the OS's. */
export const themeAtom = atom<ThemeName>((get) => resolveTheme(get(ownThemeStateAtom), get(brandingThemeAtom)));
