export type ThemeName = 'light' | 'dark';

/**
 * The theme to show (product.md §3): the person's own choice in this browser when made, else the
 * instance's branding theme. Only 'dark' is dark and '' (and anything unknown) light, whatever
 * the operating system prefers; 'system', an own choice only, follows the system (`systemDark`).
 */
export function resolveTheme(own: string | null, branding: string, systemDark = false): ThemeName {
  const chosen = own ?? branding;
  if (chosen === 'system') return systemDark ? 'dark' : 'light';
  return chosen === 'dark' ? 'dark' : 'light';
}
