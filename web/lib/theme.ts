export type ThemeName = 'light' | 'dark';

/** The theme to show: 'dark' or 'light' as set, else the system preference ('' means unset). */
export function resolveTheme(setting: string, prefersDark: boolean): ThemeName {
  if (setting === 'dark' || setting === 'light') return setting;
  return prefersDark ? 'dark' : 'light';
}
