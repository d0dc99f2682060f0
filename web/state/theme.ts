import { atom } from 'jotai';
import { resolveTheme, type ThemeName } from '../lib/theme';

const DARK_QUERY = '(prefers-color-scheme: dark)';

/** The configured theme: 'dark', 'light', or '' to follow the system (set from Theme at start). */
export const themeSettingAtom = atom('');

const systemDarkAtom = atom(false);
systemDarkAtom.onMount = (set) => {
  const query = window.matchMedia(DARK_QUERY);
  const update = (): void => set(query.matches);
  update();
  query.addEventListener('change', update);
  return () => query.removeEventListener('change', update);
};

/** The theme in force, following the system's light/dark switch while the setting is ''. */
export const themeAtom = atom<ThemeName>((get) => resolveTheme(get(themeSettingAtom), get(systemDarkAtom)));
