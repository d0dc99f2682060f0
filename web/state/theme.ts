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
 * The person's own theme in this browser ('' = light, 'dark', 'system'), null until chosen. The
 * user record of the API has no theme field, so the choice is kept in localStorage, not on the
 * server.
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

const DARK_QUERY = '(prefers-color-scheme: dark)';

/** Whether the operating system asks for dark, followed while anything shows the theme. */
const systemDarkAtom = atom(typeof matchMedia === 'function' && matchMedia(DARK_QUERY).matches);
systemDarkAtom.onMount = (set) => {
  const query = matchMedia(DARK_QUERY);
  const follow = (): void => set(query.matches);
  follow();
  query.addEventListener('change', follow);
  return () => query.removeEventListener('change', follow);
};

/**
 * A theme picked in the profile form and not saved yet, shown at once ("previewed"); null when
 * none. The form puts it back to null when it is left, so an unsaved pick does not stay.
 */
export const previewThemeAtom = atom<string | null>(null);

/**
 * The theme in force: the preview, else the own choice, else the branding theme; '' is light,
 * never the OS's, and only an own 'system' follows the OS.
 */
export const themeAtom = atom<ThemeName>((get) => resolveTheme(get(previewThemeAtom) ?? get(ownThemeStateAtom), get(brandingThemeAtom), get(systemDarkAtom)));
